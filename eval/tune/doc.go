// Package tune fits the weights of the learned evaluation (eval.Params)
// to self-play data, and reads and writes that data.
//
// The data format (see docs/tuning.md) is a binary file: a header naming
// the game and its rules, then one fixed-size record per position with
// the position, the search's score and the game's result. Writer and
// Reader handle it; a file whose last record was cut short can be
// continued after Scan.
//
// The tuner (Tune) is Texel tuning extended with the search score: it
// first fits the scale K of the sigmoid that maps evaluations to expected
// results, then minimises, by Adam on mini-batches, the mean squared
// difference between sigmoid(K·eval) and a target that mixes the game's
// result and sigmoid(K·search score) by a factor lambda, holding out a
// share of the games to stop when the validation loss stops falling.
//
// The win/draw/loss model of the engine's forecasts (eval.WDLModel) is
// fitted to the data's search scores and results by FitWDL, and measured
// on held-out games by Calibrate: forecast against observed score in bins.
//
// The package sits with eval, below the search: it needs the evaluation's
// features and the positions, not the search. Data generation, which does
// search, is in package bench.
package tune
