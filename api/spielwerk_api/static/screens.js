// Each game's screen (its board), the one map of them: the match, the replay and the
// tutorials draw with it. A game without a board of its own gets the generic screen
// (generic.js: the view as lists, every legal move as a button).

import { renderCaravan } from "./caravan.js";
import { renderDog } from "./dog.js";
import { renderGeneric } from "./generic.js";
import { renderSchotten } from "./schotten.js";
import { renderTheGame } from "./thegame.js";

const SCREENS = { schotten_totten: renderSchotten, caravan: renderCaravan, the_game: renderTheGame, dog: renderDog };

export function screenFor(game) {
  return SCREENS[game] || renderGeneric;
}
