// The game pages. Adding a game's page: write games/<name>.js (see generic.js and
// docs/web-api.md for the interface) and add one line below. Games without a page of their own
// get the generic one.
import generic from './generic.js';
import einstein from './einstein.js';
import connect4 from './connect4.js';
import gomoku from './gomoku.js';
import risk from './risk.js';
import tactics from './tactics.js';

const pages = [einstein, connect4, gomoku, risk, tactics];

export function pageFor(name) {
  return pages.find((p) => p.name === name) || generic;
}

/** Whether the game has a page of its own (else it is played on the generic one). */
export function hasPage(name) {
  return pages.some((p) => p.name === name);
}

/** A game's display name: its page's title, else its registry name capitalised. */
export function titleOf(name) {
  return pageFor(name).title || name[0].toUpperCase() + name.slice(1);
}
