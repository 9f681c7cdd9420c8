// Package selfplay makes training data by self-play, the games behind
// "sower datagen": Datagen plays the engine against itself from varied
// openings at a fixed search budget, several games at a time, and hands
// over every finished game (GameData) with its quiet, undecided positions
// (Quiet) labelled with the search's score and the game's result: the
// data that sower tune fits the evaluation to and sower train trains its
// networks on.
//
// The broker (package bench/broker) spreads the same games over many
// machines.
package selfplay
