import { tokenFromFragment } from "./link-token";

test("the token is read from the link's fragment, and a link without one gives none", () => {
  expect(tokenFromFragment("#token=abc-DEF_123")).toBe("abc-DEF_123");
  expect(tokenFromFragment("token=abc")).toBe("abc");
  expect(tokenFromFragment("#other=1")).toBe("");
  expect(tokenFromFragment("")).toBe("");
});
