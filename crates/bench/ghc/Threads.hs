-- Copied unchanged below this line from the project's shared benchmark shapes (shared/bench/ghc/Threads.hs,
-- the scheduler-heavy input issue 38 measures on); `gen.sh --threads` builds and runs it.
-- A scheduler-heavy eventlog, the common ThreadScope case: tens of thousands of short-lived threads, each
-- running many short steps marked with user events, on every capability.
-- Build: ghc -O1 -threaded -rtsopts -eventlog Threads.hs
-- Run:   ./Threads THREADS +RTS -N2 -l -ol OUT.eventlog -RTS     (40000 threads: about 190 MB, 10 M events)
import Control.Concurrent
import Control.Monad
import Debug.Trace (traceEventIO)
import System.Environment (getArgs)

main :: IO ()
main = do
  args <- getArgs
  let n = case args of { (a : _) -> read a; _ -> 4000 } :: Int
  done <- newEmptyMVar
  forM_ [1 .. n] $ \i -> forkIO $ do
    forM_ [1 .. 60 :: Int] $ \j -> do
      traceEventIO ("START step" ++ show (j `mod` 7))
      let x = sum [1 .. (i * j) `mod` 2000] :: Int
      x `seq` traceEventIO ("STOP step" ++ show (j `mod` 7))
      yield
    putMVar done ()
  replicateM_ n (takeMVar done)
