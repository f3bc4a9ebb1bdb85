// @ts-check
// The Redocly plugin `mall`: this project's lint rules over the spec sources and bundles.
// `rule-provenance` (rule-provenance.js): a rule extension says where its fact comes from;
// `query-meaning` (query-meaning.js): every query parameter declares its meaning in `x-query`;
// `record-reference` (record-reference.js): `x-refers-to` and `x-per-shop` read;
// `event-source` (event-source.js): an event's `x-emitted-by` names write operations.
import { EventSource } from './event-source.js';
import { QueryMeaning } from './query-meaning.js';
import { RecordReference } from './record-reference.js';
import { RuleProvenance } from './rule-provenance.js';

export default function mallPlugin() {
  return {
    id: 'mall',
    rules: {
      oas3: {
        'rule-provenance': RuleProvenance,
        'query-meaning': QueryMeaning,
        'record-reference': RecordReference,
        'event-source': EventSource,
      },
    },
  };
}
