/**
 * The standard built-ins as they are when this is called, to tell which a library replaced later
 * and put them back (tests/support/pdf.ts; tests/support/batch.ts checks that no file leaves one
 * replaced for the files after it in its process): the own properties of globalThis, of the
 * global constructors and namespaces, and of their prototypes.
 */
export function nativeBuiltins(): { restore(): string[] } {
  const kept: Array<[object, PropertyKey, PropertyDescriptor]> = [];
  const holders = new Map<object, string>([[globalThis, 'globalThis']]);
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    const value = (globalThis as Record<string, unknown>)[name];
    if (!/^[A-Z]/.test(name) || value === null || (typeof value !== 'object' && typeof value !== 'function')) continue;
    if (!holders.has(value)) holders.set(value, name);
    const prototype = (value as { prototype?: unknown }).prototype;
    if (prototype && (typeof prototype === 'object' || typeof prototype === 'function') && !holders.has(prototype))
      holders.set(prototype, `${name}.prototype`);
  }
  holders.set(Object.getPrototypeOf(Uint8Array), 'TypedArray');
  holders.set(Object.getPrototypeOf(Uint8Array.prototype), 'TypedArray.prototype');
  for (const holder of holders.keys())
    for (const key of Reflect.ownKeys(holder)) {
      const descriptor = Object.getOwnPropertyDescriptor(holder, key);
      if (descriptor?.configurable) kept.push([holder, key, descriptor]);
    }
  const changed = () =>
    kept.filter(([holder, key, descriptor]) => {
      const now = Object.getOwnPropertyDescriptor(holder, key);
      if (now?.value === descriptor.value && now?.get === descriptor.get && now?.set === descriptor.set) return false;
      return !(Number.isNaN(now?.value) && Number.isNaN(descriptor.value));
    });
  return {
    /** Puts back the built-ins replaced since; answers their names. */
    restore() {
      const replaced = changed();
      for (const [holder, key, descriptor] of replaced) Object.defineProperty(holder, key, descriptor);
      return replaced.map(([holder, key]) => `${holders.get(holder)}.${String(key)}`);
    },
  };
}
