// Placeholder entry so the build has every entry point; the selection worker lands with the dig loop.
export {};
