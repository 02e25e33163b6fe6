import type { Database } from "../src/database.js";
import { EmbeddedPostgres } from "../src/embedded-postgres.js";
import { fieldViolations } from "../src/errors.js";
import { selectPage } from "../src/pages.js";
import { type ScratchDatabase, scratchPostgres } from "./databases.js";
import { available, POSTGRES_URL } from "./infra.js";

const QUERY = {
  from: "items",
  columns: "id, owner",
  where: "owner = $1",
  orderBy: "id DESC",
  maxPageSize: 5,
};

async function seed(db: Database): Promise<void> {
  await db.exec("CREATE TABLE items (id int PRIMARY KEY, owner text NOT NULL)");
  await db.query(
    "INSERT INTO items SELECT g, CASE WHEN g % 2 = 0 THEN 'even' ELSE 'odd' END FROM generate_series(1, 13) g",
  );
}

function behavesAsAPage(open: () => Promise<ScratchDatabase>) {
  let db: Database;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await open());
    await seed(db);
  });
  afterAll(() => close());

  test("a page holds its rows in order, without the window column, and the total of all matching rows", async () => {
    const page = await selectPage<{ id: number; owner: string }>(db, { ...QUERY, params: ["odd"] }, 1, 3);
    expect(page).toEqual({
      rows: [
        { id: 7, owner: "odd" },
        { id: 5, owner: "odd" },
        { id: 3, owner: "odd" },
      ],
      totalCount: 7,
    });
  });

  test("the last page holds the rest; a page past the end is empty but still knows the total", async () => {
    expect(await selectPage(db, { ...QUERY, params: ["even"] }, 1, 5)).toEqual({
      rows: [{ id: 2, owner: "even" }],
      totalCount: 6,
    });
    expect(await selectPage(db, { ...QUERY, params: ["even"] }, 4, 5)).toEqual({ rows: [], totalCount: 6 });
  });

  test("a page larger than the list declares, empty, fractional or before the first is refused, naming each bound", async () => {
    const refusal = (pageIndex: number, pageSize: number) =>
      selectPage(db, { ...QUERY, params: ["odd"] }, pageIndex, pageSize).then(
        () => undefined,
        (err) => fieldViolations(err),
      );
    expect(await refusal(0, 6)).toEqual([{ path: "pageSize", message: "must be from 1 to 5" }]);
    expect(await refusal(0, 0)).toEqual([{ path: "pageSize", message: "must be from 1 to 5" }]);
    expect(await refusal(0, 2.5)).toEqual([{ path: "pageSize", message: "must be from 1 to 5" }]);
    expect(await refusal(-1, 2_000_000_000)).toEqual([
      { path: "pageIndex", message: "must be 0 or more" },
      { path: "pageSize", message: "must be from 1 to 5" },
    ]);
  });

  test("nothing matching is an empty first page with a total of 0", async () => {
    expect(await selectPage(db, { ...QUERY, params: ["nobody"] }, 0, 5)).toEqual({ rows: [], totalCount: 0 });
  });
}

describe("selectPage on PGlite", () => {
  behavesAsAPage(async () => {
    const embedded = await EmbeddedPostgres.open();
    return { db: embedded.database("pages"), close: () => embedded.close() };
  });
});

const postgres = await available("Postgres", POSTGRES_URL);

(postgres ? describe : describe.skip)("selectPage on Postgres", () => {
  behavesAsAPage(() => scratchPostgres("kit_pages_"));
});
