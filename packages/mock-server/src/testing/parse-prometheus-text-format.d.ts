// Types of parse-prometheus-text-format (it ships none), as far as the metrics tests read it: each
// family of the Prometheus text format with its samples' labels and values as written.
declare module 'parse-prometheus-text-format' {
  /** One sample of a counter or gauge, or one histogram's buckets, count and sum. */
  interface Sample {
    readonly labels?: Readonly<Record<string, string>>;
    readonly value?: string;
    readonly buckets?: Readonly<Record<string, string>>;
    readonly count?: string;
    readonly sum?: string;
  }
  /** One metric family. */
  interface Family {
    readonly name: string;
    readonly help: string;
    readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    readonly metrics: readonly Sample[];
  }
  /** Parses a scrape. */
  export default function parsePrometheusTextFormat(text: string): Family[];
}
