// What a stage is — a named step that either answers the request or passes it on — and the loop
// that runs an ordered list of them. A list must end with a stage that always answers.
import type { Exchange } from './exchange.js';
import type { Reply } from './reply.js';

/** One step of the front layer: answers (a Reply) or passes on (undefined). */
export interface Stage {
  readonly name: string;
  run(exchange: Exchange): Reply | undefined | Promise<Reply | undefined>;
}

/** The answer of a pipeline and the stage that gave it. */
export interface PipelineOutcome {
  readonly reply: Reply;
  readonly stage: string;
}

/** Runs the stages in order until one answers. */
export async function runStages(stages: readonly Stage[], exchange: Exchange): Promise<PipelineOutcome> {
  for (const stage of stages) {
    const reply = await stage.run(exchange);
    if (reply) return { reply, stage: stage.name };
  }
  throw new Error(`no stage answered ${exchange.method} ${exchange.path}`);
}
