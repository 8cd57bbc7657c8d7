/* The pages' half of partyrummy/delta.py: an update's changes made to the view it follows. */

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
