-- | A parallel Haskell workload whose eventlog is the GHC benchmark's input.
--
-- Many short-lived threads (forkIO) on every capability, each building and
-- folding a Data.Map, so the runtime records thread runs, migrations,
-- parallel collections of both generations and (with -hT) heap samples.
-- Usage: workload ROUNDS THREADS   (the eventlog grows with ROUNDS).
module Main (main) where

import Control.Concurrent (forkIO, yield)
import Control.Concurrent.MVar (newEmptyMVar, putMVar, takeMVar)
import Control.Monad (forM, forM_, replicateM_)
import qualified Data.Map.Strict as M
import System.Environment (getArgs)

-- | One thread's work: a map of i keys built, looked up and summed,
-- yielding now and then so that threads interleave.
work :: Int -> Int -> IO Int
work seed size = do
  let m = M.fromList [(k * seed `mod` 7919, k) | k <- [1 .. size]]
  yield
  let s = sum [M.findWithDefault 0 k m | k <- [1, 3 .. size]]
  s `seq` yield
  return $! s + M.size m

main :: IO ()
main = do
  args <- getArgs
  let (rounds, threads) = case args of
        [r, t] -> (read r, read t)
        _ -> (20, 200)
  totals <- forM [1 .. rounds] $ \r -> do
    done <- newEmptyMVar
    forM_ [1 .. threads] $ \t -> forkIO $ do
      x <- work (r * threads + t) (200 + (t * 37) `mod` 1800)
      replicateM_ 100 yield
      putMVar done x
    sum <$> forM [1 .. threads] (const (takeMVar done))
  print (sum totals :: Int)
