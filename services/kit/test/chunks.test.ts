import { inChunksOf } from "../src/chunks.js";

async function collect(pieces: number[], size: number): Promise<Uint8Array[]> {
  let next = 0;
  async function* source() {
    for (const length of pieces) {
      yield Uint8Array.from({ length }, () => next++ % 256);
    }
  }
  const out: Uint8Array[] = [];
  for await (const chunk of inChunksOf(source(), size)) out.push(chunk);
  return out;
}

test("small pieces are joined into chunks of the given size, the last one shorter", async () => {
  const chunks = await collect([3, 3, 3, 3, 1], 4);
  expect(chunks.map((c) => c.length)).toEqual([4, 4, 4, 1]);
});

test("a piece larger than the size is cut, and the bytes come out unchanged and in order", async () => {
  const chunks = await collect([1, 10, 2], 4);
  expect(chunks.map((c) => c.length)).toEqual([4, 4, 4, 1]);
  expect([...Buffer.concat(chunks)]).toEqual(Array.from({ length: 13 }, (_, i) => i));
});

test("nothing in, nothing out; empty pieces are skipped", async () => {
  expect(await collect([], 4)).toEqual([]);
  expect((await collect([0, 4, 0], 4)).map((c) => c.length)).toEqual([4]);
});
