// Package train fits the networks of package eval/nnue to the data files
// that sower datagen writes (package eval/tune reads them).
//
// The network is trained in floating point with the architecture of
// package nnue (Float), then quantised to its integer form (Quantise).
// Each position is scored by the float network, y in seeds; the loss is
// the squared error between σ(100·y/Scale) and the target
//
//	target = λ·σ(score/Scale) + (1 − λ)·result
//
// where score is the search's score recorded with the position (in
// hundredths of a seed), result the game's result for the side to move
// (1, 0.5 or 0), σ the logistic function and Scale the score scale (by
// default 1/K of the family's built-in WDL model, so a score means the
// same chance as in the WDL forecast). λ is the weight of the search's
// score, as in the NNUE trainers (λ = 1 trains on the scores alone); note
// that sower tune's lambda is the other weight, the result's. A position
// whose exact result is known (Dataset.UseExact: the Hoyito III endgame
// tables, through sower train --tables) has that result, 1, 0.5 or 0, as
// its whole target instead.
//
// Training uses Adam on mini-batches, whole games held out for
// validation, the weights of the best validation loss kept, early stopping
// after Patience epochs without one, and a checkpoint after every epoch
// from which an interrupted run resumes with the same result it would
// have had: the order of an epoch's positions depends only on the seed and
// the epoch, and the gradient of a batch is summed in a fixed order
// whatever the number of threads.
package train
