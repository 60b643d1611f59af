/**
 * Acquires on their way to Redis: the ones started in one turn of the event loop travel in one script call,
 * which saves the client a command and a reply parse per acquire, and Redis a dispatch and a script set-up. A
 * batch leaves when the turn's I/O is done (`setImmediate`), or at once when full: nothing waits for company.
 * On a Redis Cluster a script's keys must share a slot, so there a batch holds one counter's acquires (one
 * hash tag); a client that hides being a cluster is found out by its first CROSSSLOT error, and that batch is
 * sent again split by counter.
 */
import { FlightCall } from './flight-control.js';
import { runScript, type ScriptRunner } from './redis-client.js';
import { ScriptErrorReply, acquireToken, decodeAnswer, splitReply } from './script-codec.js';
import { SLIDING_WINDOW_SCRIPT } from './sliding-window-script.js';
import type { AcquireOptions, RateLimitFailureMode, RateLimitPolicy } from '../index.js';

/** One acquire on its way to Redis, as the script takes it (one object per call). */
export class AcquireCall extends FlightCall {
  constructor(
    private readonly batches: AcquireBatches,
    /** Its counter's key. */
    readonly key: string,
    /** Its policy's script arguments (one array per policy, so equal policies are told by identity). */
    readonly plan: readonly string[],
    /** Its cost and time as the script takes them (`acquireTail`). */
    readonly tail: string,
    policy: RateLimitPolicy,
    cost: number,
    failureMode: RateLimitFailureMode,
    options: AcquireOptions | undefined,
  ) {
    super(policy, cost, failureMode, options);
  }

  send(): void {
    this.batches.send(this);
  }
}

/** Most acquires in one script call: a batch keeps Redis busy for it whole, so it stays short. */
const MAX_BATCH = 64;

/** Frees the slot of an acquire given up before its batch left; nobody reads it (its caller has its answer). */
const NOT_SENT = new Error('the acquire was given up before it was sent');

export class AcquireBatches {
  readonly #open = new Map<string, AcquireCall[]>();
  #flushing = false;
  /** Only acquires of one hash tag share a batch: on a Redis Cluster, or since one answered CROSSSLOT. */
  #grouped: boolean;

  constructor(private readonly runner: ScriptRunner) {
    this.#grouped = runner.cluster;
  }

  /** Queues an acquire for this turn's batch; it is answered through its own `reply` or `error`. */
  send(acquire: AcquireCall): void {
    const group = this.#grouped ? hashTag(acquire.key) : '';
    let batch = this.#open.get(group);
    if (batch === undefined) {
      batch = [];
      this.#open.set(group, batch);
    }
    batch.push(acquire);
    if (batch.length >= MAX_BATCH) {
      this.#open.delete(group);
      this.#dispatch(batch);
    } else if (!this.#flushing) {
      this.#flushing = true;
      setImmediate(this.#flush);
    }
  }

  readonly #flush = (): void => {
    this.#flushing = false;
    for (const batch of this.#open.values()) this.#dispatch(batch);
    this.#open.clear();
  };

  #dispatch(batch: readonly AcquireCall[]): void {
    const plans: (readonly string[])[] = [];
    const keys: string[] = [];
    let acquires = '';
    const sent: AcquireCall[] = [];
    for (const entry of batch) {
      if (entry.settled) {
        entry.error(NOT_SENT);
        continue;
      }
      entry.sending();
      let plan = plans.indexOf(entry.plan);
      if (plan < 0) plan = plans.push(entry.plan) - 1;
      keys.push(entry.key);
      acquires += acquireToken(plan + 1, entry.tail);
      sent.push(entry);
    }
    if (sent.length === 0) return;
    const args = [String(plans.length)];
    for (const plan of plans) args.push(...plan);
    args.push(acquires);

    const answer = (reply: unknown): void => {
      const answers = splitReply(reply, sent.length);
      if (answers === undefined) {
        fail(new Error(`unexpected script reply ${JSON.stringify(reply)}`));
        return;
      }
      for (let j = 0; j < sent.length; j++) {
        const entry = sent[j]!;
        const decision = decodeAnswer(answers[j]!, entry.policy.permitLimit);
        if (decision instanceof ScriptErrorReply) entry.error(decision);
        else entry.reply(decision);
      }
    };
    const fail = (error: unknown): void => {
      if (isCrossSlot(error) && !sameTag(sent)) {
        // Redis refused keys that span slots: from now on a batch holds one counter's acquires; these go again so.
        this.#grouped = true;
        for (const entry of sent) this.send(entry);
      } else for (const entry of sent) entry.error(error);
    };
    runScript(this.runner, SLIDING_WINDOW_SCRIPT, keys, args, answer, fail);
  }
}

/** True when every acquire sent belongs to one hash tag (so splitting cannot help). */
function sameTag(sent: readonly AcquireCall[]): boolean {
  const first = hashTag(sent[0]!.key);
  return sent.every((entry) => hashTag(entry.key) === first);
}

function isCrossSlot(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('CROSSSLOT');
}

/** The cluster hash tag of a store key (`prefix{tag}:sw3`); a prefix never holds braces. */
function hashTag(key: string): string {
  const open = key.indexOf('{');
  return key.slice(open + 1, key.indexOf('}', open + 1));
}
