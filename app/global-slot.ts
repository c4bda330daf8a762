/**
 * A global slot: a value every copy of a module in this process shares. The
 * boot (`build/server/boot.js`) and the server build (`build/server/index.js`),
 * or under `npm run dev` Node and Vite, each load their own copy of a module, so
 * state both read lives on `globalThis` under a registered symbol instead.
 */
export interface GlobalSlot<T> {
  get(): T | undefined;
  set(value: T | undefined): void;
}

export function globalSlot<T>(name: string): GlobalSlot<T> {
  const key = Symbol.for(`remix-scaffold.${name}`);
  const holder = globalThis as Record<symbol, T | undefined>;
  return {
    get: () => holder[key],
    set: (value) => {
      holder[key] = value;
    },
  };
}
