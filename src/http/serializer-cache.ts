import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

// Fastify turns every response schema of every route into a serializer with fast-json-stringify, which
// writes and compiles code: most of the time `buildApp` takes (about 0.7 of its 1 s, measured with
// --cpu-prof). The schemas are the same module-level objects for every app a process builds (the test
// suite builds a hundred and more; the sandbox's simulator and API share a process), and the generated
// function depends only on the schema, the shared schemas and the options, so one process keeps each
// serializer once, keyed by exactly those. Bounded: the key set is the routes' schemas, and a runaway
// (schemas built per app) empties the cache rather than growing without end.
const MAX_ENTRIES = 4_000;
const serializers = new Map<string, Serializer>();

export function cachedSerializerFactory(): SerializerFactory {
  const factory = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    const context = JSON.stringify([externalSchemas ?? null, options ?? null]);
    return (route) => {
      const contentType = (route as { contentType?: string }).contentType ?? '';
      const key = `${context}\u0000${route.httpStatus}\u0000${contentType}\u0000${JSON.stringify(route.schema ?? null)}`;
      let serializer = serializers.get(key);
      if (!serializer) {
        serializer = compile(route);
        if (serializers.size >= MAX_ENTRIES) serializers.clear();
        serializers.set(key, serializer);
      }
      return serializer;
    };
  };
}
