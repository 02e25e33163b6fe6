/**
 * Group commit: items added while a write is under way wait for the next one, so that a burst costs
 * a few writes of many items instead of one write each. `add` settles when its item's write has. A
 * batch that fails is written again item by item, so that one item the database refuses (or a
 * deadlock) fails only what it must.
 */
interface Waiting<T> {
  item: T;
  done: (err?: unknown) => void;
}

export class GroupCommit<T> {
  private queue: Waiting<T>[] = [];
  private writing = false;

  /** `write` stores a batch, all or nothing. */
  constructor(private readonly write: (batch: T[]) => Promise<void>) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, done: (err) => (err ? reject(err) : resolve()) });
      if (!this.writing) void this.writeAll();
    });
  }

  private async writeAll(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      try {
        await this.write(batch.map((waiting) => waiting.item));
        for (const waiting of batch) waiting.done();
      } catch (err) {
        if (batch.length === 1) {
          batch[0]?.done(err);
          continue;
        }
        for (const waiting of batch) {
          await this.write([waiting.item]).then(
            () => waiting.done(),
            (alone: unknown) => waiting.done(alone),
          );
        }
      }
    }
    this.writing = false;
  }
}
