/* The pages' half of partyrummy/wire/delta.py: an update's changes made to the view it follows. */

/* docs/protocol.md, "update": new objects along the changed paths, the rest shared, so each update gives the
   renderers a fresh state. */
export function applyChange(old, change) {
  if (Array.isArray(change)) return change[0]; // [value]: the new value, whole
  if (Array.isArray(old)) {
    const out = old.slice(0, "len" in change ? change.len : old.length);
    for (const key of Object.keys(change)) { // integer keys come in ascending order: appended items in turn
      if (key === "len") continue;
      const i = Number(key);
      out[i] = i < old.length ? applyChange(old[i], change[key]) : change[key][0];
    }
    return out;
  }
  const out = { ...old };
  for (const [key, inner] of Object.entries(change)) {
    if (Array.isArray(inner) && inner.length === 0) delete out[key]; // []: the key is gone
    else out[key] = applyChange(old[key], inner);
  }
  return out;
}

/* A viewer's whole view: the table everyone sees, with its own part in it (partyrummy/wire/delta.py's merge). */
export function merge(table, mine) {
  const room = { ...table.room, ...(mine.room || {}) };
  const game = table.game === null || table.game === undefined ? null : { ...table.game, ...(mine.game || {}) };
  return { room, game };
}

/* The page's copy of its view (partyrummy/wire/delta.py's Replica): the table, which every connection of the room
   receives once, and its own part (`mine`), each carried from version to version by its updates; an update
   that does not follow waits for the one before it. The whole view changes only when the two go together
   (the table version the own part names, `table_v`): never a new table with an old hand. */
export function replica() {
  // `moments`: what the table's updates applied since the view was last shown meant (docs/protocol.md, `table`)
  const chain = () => ({ value: null, v: -1, pending: new Map(), last: null, moments: [] });
  const table = chain();
  const mine = chain();
  let goesWith = -1;
  let state = null;
  let moments = []; // what the table's updates to the state last shown meant (none: it came whole)
  function drain(part) {
    let moved = false;
    while (part.value !== null && part.pending.has(part.v)) {
      const message = part.pending.get(part.v);
      part.pending.delete(part.v);
      part.value = applyChange(part.value, message.changes);
      part.v = message.v;
      part.last = message;
      if (message.moments) part.moments.push(...message.moments);
      moved = true;
    }
    for (const [base, message] of part.pending) if (message.v <= part.v) part.pending.delete(base);
    return moved;
  }
  function show() {
    if (mine.last && mine.last.table_v !== undefined) goesWith = mine.last.table_v;
    if (table.value === null || mine.value === null || table.v !== goesWith) return false;
    state = { v: Math.max(table.v, mine.v), ...merge(table.value, mine.value) };
    moments = table.moments;
    table.moments = [];
    return true;
  }
  return {
    get state() { return state; },
    get moments() { return moments; },
    /* An update came that does not follow its part: ask for the whole view (not before the first one, which
       is on its way). */
    get behind() { return mine.value !== null && (table.pending.size > 0 || mine.pending.size > 0); },
    full(whole) {
      goesWith = whole.table_v;
      Object.assign(table, { value: whole.table, v: whole.table_v, last: null, moments: [] }); // nothing seen happen
      Object.assign(mine, { value: whole.mine, v: whole.v, last: null, moments: [] });
      drain(table);
      drain(mine);
      return show();
    },
    receive(event, message) {
      const part = event === "table" ? table : mine;
      if (part.value !== null && message.v <= part.v) return false; // older than the copy
      part.pending.set(message.base, message);
      return drain(part) && show();
    },
  };
}
