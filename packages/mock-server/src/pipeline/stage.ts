// What a stage is and how stages are put in order. A `Check` answers or passes the phase on as it
// is, a `Step` answers or returns facts the pipeline adds to the request's one phase object (which
// no stage writes), a `Final` stage always answers. `pipeline<In>()` builds an ordered list whose
// types follow the phase, so a stage that needs a fact cannot be placed before the stage that adds
// it; `branch` hands the requests a test picks to a list of their own. A stage that throws is
// reported with the phase it reached (`StageFailure`); most stages decide synchronously, and the
// runner awaits only promises.
import type { Arrival, Reached } from './phases.js';
import type { Reply } from './reply.js';

/** What a stage decided, at once or later. */
type Decided<T> = T | Promise<T>;

/** A stage that answers (a Reply) or passes the phase on as it is (undefined). */
export interface Check<Needs> {
  readonly name: string;
  readonly run: (phase: Needs) => Decided<Reply | undefined>;
}

/** A stage that answers, or finds `Adds`, which the next phase carries (undefined: nothing found). */
export interface Step<Needs, Adds extends object> {
  readonly name: string;
  readonly run: (phase: Needs) => Decided<Reply | Adds | undefined>;
}

/** The last stage: it always answers. */
export interface Final<Needs> {
  readonly name: string;
  readonly run: (phase: Needs) => Decided<Reply>;
}

/** A reply, the stage that gave it and what the request had reached then. */
export interface Answered {
  readonly reply: Reply;
  readonly stage: string;
  readonly reached: Reached;
}

/** A request no stage answered, in the phase it reached. */
export interface Passed<Out> {
  readonly reply: undefined;
  readonly reached: Out;
}

/** What running a pipeline gives: always an answer once it ends with a final stage. */
export type Outcome<Out> = [Out] extends [never] ? Answered : Answered | Passed<Out>;

/** A stage threw: its name, the phase the request had reached, and the error as `cause`. */
export class StageFailure extends Error {
  constructor(
    readonly stage: string,
    readonly reached: Reached,
    cause: unknown,
  ) {
    super(`the ${stage} stage failed`, { cause });
    this.name = 'StageFailure';
  }
}

/** An ordered list of stages from phase `In` to phase `Out` (`never` once it ends). */
export interface Pipeline<In, Out> {
  /** The stage names in order (a branch by its name). */
  readonly names: readonly string[];
  readonly check: (stage: Check<Out>) => Pipeline<In, Out>;
  /** A check that only some APIs have (skipped when undefined). */
  readonly checkIf: (stage: Check<Out> | undefined) => Pipeline<In, Out>;
  readonly step: <Adds extends object>(stage: Step<Out, Adds>) => Pipeline<In, Out & Adds>;
  /** A step that only some APIs have: what it adds may be absent. */
  readonly stepIf: <Adds extends object>(
    stage: Step<Out, Adds> | undefined,
  ) => Pipeline<In, Out & Partial<Adds>>;
  /** Requests `takes` picks go through `other` (which ends) instead of the rest of this one. */
  readonly branch: (
    name: string,
    takes: (phase: Out) => boolean,
    other: Pipeline<Out, never>,
  ) => Pipeline<In, Out>;
  /** A branch that only some APIs have (skipped when `other` is undefined). */
  readonly branchIf: (
    name: string,
    takes: (phase: Out) => boolean,
    other: Pipeline<Out, never> | undefined,
  ) => Pipeline<In, Out>;
  /** Runs the stages of `rest`, which starts from a phase this one has reached. */
  readonly join: <Rest>(rest: Pipeline<Out, Rest>) => Pipeline<In, Rest>;
  readonly end: (stage: Final<Out>) => Pipeline<In, never>;
  /** Runs the stages over `input`, adding each step's facts to it. */
  readonly run: (input: In) => Promise<Outcome<Out>>;
}

/** One entry of a built list: a stage (answering, or returning facts to add), or a branch. */
type Entry =
  | { readonly name: string; readonly run: (phase: never) => Decided<Reply | object | undefined> }
  | {
      readonly name: string;
      readonly takes: (phase: never) => boolean;
      readonly other: { run(phase: never): Promise<unknown> };
    };

/** A reply rather than facts: no phase has a `status`. */
const isReply = (value: object): value is Reply => 'status' in value;

/** Runs the entries in order until one answers, adding each step's facts to the phase. */
async function runEntries(entries: readonly Entry[], input: object): Promise<Answered | Passed<object>> {
  const phase = input;
  let name = '';
  try {
    for (const entry of entries) {
      name = entry.name;
      if ('takes' in entry) {
        if ((entry.takes as (phase: object) => boolean)(phase))
          return (await (entry.other.run as (phase: object) => Promise<unknown>)(phase)) as Answered;
        continue;
      }
      const outcome = (entry.run as (phase: object) => Decided<Reply | object | undefined>)(phase);
      // Most stages decide synchronously; awaiting only promises keeps the request off the microtask queue.
      const result = outcome instanceof Promise ? await outcome : outcome;
      if (result === undefined) continue;
      if (isReply(result)) return { reply: result, stage: entry.name, reached: phase as Reached };
      // The facts join the request's one phase object (which only the runner writes): adding the
      // same few properties in the same order on every request keeps it cheap, where a copy per
      // step cost a sixth of the request path's CPU time (docs/benchmarks.md).
      Object.assign(phase, result);
    }
  } catch (error) {
    throw error instanceof StageFailure ? error : new StageFailure(name, phase as Reached, error);
  }
  return { reply: undefined, reached: phase };
}

function build<In, Out>(entries: readonly Entry[]): Pipeline<In, Out> {
  const add = <Next>(entry: Entry | undefined) =>
    build<In, Next>(entry === undefined ? entries : [...entries, entry]);
  const forked = (name: string, takes: (phase: Out) => boolean, other: Pipeline<Out, never>): Entry => ({
    name,
    takes,
    other,
  });
  return {
    names: entries.map((entry) => entry.name),
    check: (stage) => add(stage),
    checkIf: (stage) => add(stage),
    step: (stage) => add(stage),
    stepIf: (stage) => add(stage),
    branch: (name, takes, other) => add(forked(name, takes, other)),
    branchIf: (name, takes, other) => add(other && forked(name, takes, other)),
    join: <Rest>(rest: Pipeline<Out, Rest>) => build<In, Rest>([...entries, ...entriesOf(rest)]),
    end: (stage) => add(stage),
    run: (input) => runEntries(entries, input as object) as Promise<Outcome<Out>>,
    [entriesKey]: entries,
  } as Pipeline<In, Out>;
}

/** Where a built pipeline keeps its entries (for `join`). */
const entriesKey = Symbol('entries');
const entriesOf = (pipeline: object): readonly Entry[] =>
  (pipeline as unknown as { [entriesKey]: readonly Entry[] })[entriesKey];

/** An empty pipeline from phase `In` (an arrival, or any later phase for a branch or a tail). */
export const pipeline = <In extends Arrival>(): Pipeline<In, In> => build<In, In>([]);
