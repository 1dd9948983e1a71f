// The game's data for the client, from the server (GET /api/games/mare-nostrum/board-data, built
// from the engine's package data): the map with its layout (map.json), the heroes and wonders, the
// goods, the base costs and the empires' piece colours. Loaded once, when the board module loads.

async function load() {
  const res = await fetch("/api/games/mare-nostrum/board-data");
  if (!res.ok) throw new Error(`Mare Nostrum board data: HTTP ${res.status}`);
  return res.json();
}

export const DATA = await load();
