// The prepared positions of the tutorials (tutorial.js): a game, a seed, the plies that lead
// to the position, the seat the person plays, and the steps with the move each one teaches.
// The positions were chosen with the engine (see tests/web/test_tutorials.py, which plays
// each lesson through the page).

export const TUTORIALS = {};
