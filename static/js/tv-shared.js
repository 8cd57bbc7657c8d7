/* What the TV's screens share: the page's elements, the room, the latest state, and the host's actions. */

export const $ = (id) => document.getElementById(id);
export const room = document.body.dataset.room;

/* The latest state from the room and when it arrived; the link and the seat panel, once the page has them. */
export const view = { state: null, received: Date.now(), link: null, openPanel: () => {} };

/* Send one of the host's actions; a refusal shows in the top bar. */
export async function act(event, data) {
  const ack = await view.link.send(event, data);
  if (!ack.ok) $("info").textContent = ack.error.message;
  return ack;
}
