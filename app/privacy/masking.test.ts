import { describe, expect, it } from "vitest";
import { maskPrivateText } from "./masking";

const PRIVATE = {
  token: "tok_live_4eC39HqLyjWDarjtT1zdp7dc",
  email: "ada.lovelace@example.com",
  card: "4111 1111 1111 1111",
};

describe("maskPrivateText", () => {
  it("masks tokens, e-mail addresses, card and phone numbers, Bearer credentials", () => {
    expect(maskPrivateText(`token ${PRIVATE.token}, ${PRIVATE.email}, card ${PRIVATE.card}`)).toBe(
      "token [token], [email], card [number]",
    );
    expect(maskPrivateText("user 0b9e4c58-3f0e-4d8a-9c1e-2a7f5d6b8e90 at +44 20-7946-0958")).toBe(
      "user [token] at +[number]",
    );
    expect(maskPrivateText("Authorization: Bearer abc.def")).toBe("Authorization: Bearer [token]");
  });

  it("leaves the words of a message alone", () => {
    const words = "Order 42 not found in orders_by_customer_id (ECONNREFUSED 127.0.0.1:5432)";
    expect(maskPrivateText(words)).toBe(words);
  });
});
