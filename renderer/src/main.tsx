// Entry: pick the host client (Electron's preload bridge, else `horu web` over HTTP/WS),
// connect the store, render.
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { connect, useStore } from "./store";
import { ElectronHostClient, electronBridge } from "./host/desktop";
import { WebHostClient, readToken } from "./host/web";
import type { HostClient } from "../../shared/api/contract";
import "./styles.css";

async function start(): Promise<void> {
  const bridge = electronBridge();
  let client: HostClient;
  if (bridge) {
    client = new ElectronHostClient(bridge);
    useStore.setState({ serverPaths: true }); // the desktop app reads this machine's files
  } else {
    let storage: Storage | null;
    try {
      storage = sessionStorage;
    } catch {
      storage = null; // blocked storage: the cookie still authenticates
    }
    const web = new WebHostClient(readToken(window.location, storage));
    web.onConnection((c) => useStore.setState({ connected: c !== "closed" && c !== "unauthorized", tokenGone: c === "unauthorized" }));
    // Drop the token from the address bar (it stays in sessionStorage and the cookie).
    if (new URLSearchParams(window.location.search).has("token")) history.replaceState(null, "", window.location.pathname);
    client = web;
  }
  createRoot(document.getElementById("root")!).render(<App />);
  await connect(client);
}

void start().catch((e: unknown) => useStore.setState({ error: e instanceof Error ? e.message : String(e) }));
