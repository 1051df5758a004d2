/*
 * The Mocha globals web-test-runner provides, for the type checker (there is no @types/mocha
 * in the project). Declared as functions so another declaration of them merges instead of clashing.
 */
interface MochaContext {
  timeout(ms: number): void;
  skip(): never;
}
type MochaCallback = (this: MochaContext) => unknown;
declare function describe(title: string, body: () => void): void;
declare function it(title: string, body?: MochaCallback): void;
declare function before(body: MochaCallback): void;
declare function after(body: MochaCallback): void;
declare function beforeEach(body: MochaCallback): void;
declare function afterEach(body: MochaCallback): void;
declare namespace describe {
  function skip(title: string, body: () => void): void;
  function only(title: string, body: () => void): void;
}
declare namespace it {
  function skip(title: string, body?: MochaCallback): void;
  function only(title: string, body?: MochaCallback): void;
}
