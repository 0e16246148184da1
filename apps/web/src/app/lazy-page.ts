import { lazy, type ComponentType } from 'react';

/**
 * A page (or layout) loaded as its own chunk the first time it is shown, or preloaded.
 *
 * Once its chunk is in, the page renders at once: React.lazy would otherwise suspend on its first
 * render even then (a resolved promise still answers a tick later), the route would show its
 * skeleton, and React holds a skeleton for at least 300 ms before it reveals what replaces it.
 * A thenable that answers synchronously lets lazy() take the component in the same render.
 */
export function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
) {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = (): Promise<ComponentType> =>
    (loading ??= load().then(
      (module) => (loaded = module[name]),
      (error: unknown) => {
        loading = undefined; // the next attempt asks for the chunk again
        throw error;
      },
    ));
  const Page = lazy(() => {
    if (!loaded) return preload().then((component) => ({ default: component }));
    const module = { default: loaded };
    const ready: PromiseLike<typeof module> = {
      then: (resolve) => Promise.resolve(resolve ? resolve(module) : module) as never,
    };
    return ready as Promise<typeof module>;
  });
  return Object.assign(Page, { preload });
}
