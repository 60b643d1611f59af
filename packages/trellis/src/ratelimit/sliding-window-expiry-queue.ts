/**
 * A binary min-heap of items by the time they may next be checked. An item's own expiry can only move later,
 * so the store pops an item when its recorded time has passed, and either drops it or pushes it back with
 * its newer time: no update per request, and one push per item per window of activity.
 */
export class ExpiryQueue<T> {
  private readonly items: T[] = [];
  private readonly dues: number[] = [];
  /** The earliest recorded time, or Infinity when empty: one comparison tells a caller there is nothing due. */
  nextDue = Number.POSITIVE_INFINITY;

  get size(): number {
    return this.items.length;
  }

  push(item: T, due: number): void {
    const { items, dues } = this;
    let i = items.length;
    items.push(item);
    dues.push(due);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (dues[parent]! <= due) break;
      items[i] = items[parent]!;
      dues[i] = dues[parent]!;
      i = parent;
    }
    items[i] = item;
    dues[i] = due;
    this.nextDue = dues[0]!;
  }

  /** Removes and returns the item with the earliest recorded time. Call only when `size > 0`. */
  pop(): T {
    const { items, dues } = this;
    const top = items[0]!;
    const lastItem = items.pop()!;
    const lastDue = dues.pop()!;
    const n = items.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= n) break;
        const right = left + 1;
        const child = right < n && dues[right]! < dues[left]! ? right : left;
        if (dues[child]! >= lastDue) break;
        items[i] = items[child]!;
        dues[i] = dues[child]!;
        i = child;
      }
      items[i] = lastItem;
      dues[i] = lastDue;
    }
    this.nextDue = n > 0 ? dues[0]! : Number.POSITIVE_INFINITY;
    return top;
  }
}
