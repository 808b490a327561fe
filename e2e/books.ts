// The end-to-end tests' books and survival check are the unit tests' own.
export { assertIntact, makeBook } from "../electron/testing/intact";
