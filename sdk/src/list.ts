// A list call answers an object that is both a promise of one page and an async iterable over every
// item, following `nextFrom` (docs/conventions.md, Lists):
//   const page = await pvs.businessLookups.list({ limit: 10 });     // { data, limit, from, nextFrom }
//   for await (const lookup of pvs.businessLookups.list()) { … }     // every lookup, page by page
// Nothing is fetched until it is awaited or iterated; iterating again starts again from the first page.
//
// PVS pages by offset. Lists sorted newest first shift when items are created during an iteration, so an
// item may be seen twice at a page boundary; de-duplicate by id if that matters.

export interface Page<Item> {
  data: Item[];
  nextFrom?: number | null;
}

export class PageList<Item, P extends Page<Item>> implements PromiseLike<P>, AsyncIterable<Item> {
  #first: Promise<P> | undefined;

  constructor(
    private readonly fetchPage: (from: number | undefined) => Promise<P>,
    private readonly from: number | undefined,
  ) {}

  /** The first page, fetched once however often it is awaited. */
  private firstPage(): Promise<P> {
    this.#first ??= this.fetchPage(this.from);
    return this.#first;
  }

  then<A = P, B = never>(onFulfilled?: ((page: P) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    let page = await this.fetchPage(this.from);
    for (;;) {
      yield* page.data;
      if (page.nextFrom === null || page.nextFrom === undefined || page.data.length === 0) return;
      page = await this.fetchPage(page.nextFrom);
    }
  }
}
