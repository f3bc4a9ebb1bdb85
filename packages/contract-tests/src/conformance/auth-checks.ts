// The auth matrix of every operation, from the spec's security and `x-` facts: no or wrong
// credentials, a token of another mall and an expired token get 401; a credential without the scope
// the status documented for it (403, else 401); plain HTTP `x-https-only.status`. Each answer must
// conform; a credential the run was not given skips its check. A write sends its example body and
// must change nothing (refused-writes.ts).
import { httpsOnlyStatusOf, isJsonObject, type OperationEntry } from '@mall-api/spec-model';
import type { Check } from './check.js';
import type { CredentialKind } from './conformance-client.js';
import { sendRefusedWrite } from './refused-writes.js';
import { bodyExample } from './request-bodies.js';
import { baselineParts } from './request-cases.js';
import type { CheckContext } from './request-checks.js';

interface Row {
  readonly name: string;
  readonly credential: CredentialKind;
  readonly status: number;
  readonly plainHttp?: boolean;
}

/** Whether the document's security asks for OAuth tokens (which belong to a mall and expire). */
function usesTokens(context: CheckContext): boolean {
  const schemes =
    context.model.resolveOptional(
      context.model.resolveOptional(context.model.document.components)?.securitySchemes,
    ) ?? {};
  const security = Array.isArray(context.model.document.security) ? context.model.document.security : [];
  return security.some(
    (requirement) =>
      isJsonObject(requirement) &&
      Object.keys(requirement).some(
        (name) => context.model.resolveOptional(schemes[name])?.type === 'oauth2',
      ),
  );
}

function rows(context: CheckContext, operation: OperationEntry): Row[] {
  const required = operation.requiredScope;
  const grantedAnyway = required !== undefined && context.client.forbiddenScopes?.includes(required) === true;
  const scoped = required !== undefined && required !== 'none' && !grantedAnyway;
  const httpsOnly = httpsOnlyStatusOf(context.model.document);
  const tokens = usesTokens(context);
  return [
    { name: 'no credentials', credential: 'none', status: 401 },
    { name: 'wrong credentials', credential: 'wrong', status: 401 },
    ...(scoped
      ? [
          {
            name: `a credential without ${operation.requiredScope}`,
            credential: 'forbidden' as const,
            status: operation.responseCodes.includes('403') ? 403 : 401,
          },
        ]
      : []),
    ...(tokens
      ? [
          { name: 'a token of another mall', credential: 'other-mall' as const, status: 401 },
          { name: 'an expired token', credential: 'expired' as const, status: 401 },
        ]
      : []),
    ...(httpsOnly !== undefined
      ? [{ name: 'plain HTTP', credential: 'valid' as const, status: httpsOnly, plainHttp: true }]
      : []),
  ];
}

/** The auth checks of every operation that needs credentials, writes with their example body. */
export function authChecks(context: CheckContext): Check[] {
  return context.model.operations
    .filter((operation) => operation.requiredScope !== 'none')
    .flatMap((operation) =>
      rows(context, operation).map((row) => ({
        group: 'auth',
        subject: operation.operationId,
        name: `${row.name} → ${row.status}`,
        async run() {
          if (!context.client.has(row.credential))
            return { skipped: `no ${row.credential} credential given` };
          const body = bodyExample(context.model, operation);
          const { answer, problems } = await sendRefusedWrite(context, {
            operation,
            parts: baselineParts(context.model, operation),
            credential: row.credential,
            ...(body === undefined ? {} : { body }),
            ...(row.plainHttp ? { plainHttp: true } : {}),
          });
          problems.push(...context.answers.problems(operation, answer));
          return {
            problems: answer.status === row.status ? problems : [`answered ${answer.status}`, ...problems],
          };
        },
      })),
    );
}
