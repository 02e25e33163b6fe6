import { brandColorOf, brandShades } from "../src/branding.js";

test("a brand colour is kept in lower case when white text on it reads at 4.5:1 or more", () => {
  expect(brandColorOf(" #0B6E4F ")).toEqual({ color: "#0b6e4f" });
  // Our own accent passes, as it must.
  expect(brandColorOf("#2451b7")).toEqual({ color: "#2451b7" });
});

test("a colour white text cannot be read on is refused with its contrast; a text that is no colour says how to write one", () => {
  const yellow = brandColorOf("#f5c400");
  expect(yellow).toEqual({ message: expect.stringMatching(/too light .* contrast 1\.\d:1 .* 4\.5:1/) });
  // Just under the line (#777777 is 4.48:1 on white) is refused; just over (#767676, 4.54:1) is kept.
  expect(brandColorOf("#777777")).toHaveProperty("message");
  expect(brandColorOf("#767676")).toEqual({ color: "#767676" });
  for (const text of ["red", "#fff", "#12345g", "rgb(0,0,0)", "#0b6e4f;color:red", ""]) {
    expect(brandColorOf(text)).toEqual({ message: expect.stringContaining('"#rrggbb"') });
  }
});

test("the pages' shades come from the one colour: darker for a pressed button, faint for a highlight", () => {
  expect(brandShades("#0b6e4f")).toEqual({ accent: "#0b6e4f", strong: "#13523c", soft: "#e8f0ec" });
  // At the lightest colour kept, white text still reads on the pressed shade.
  const { strong } = brandShades("#767676");
  expect(brandColorOf(strong)).toEqual({ color: strong });
});
