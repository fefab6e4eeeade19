-- | The anchor: ghc-events reading an eventlog and counting its events.
-- Build: ghc -O2 Count.hs -o count   (Debian's ghc, libghc-ghc-events-dev)
module Main (main) where

import GHC.RTS.Events (readEventLogFromFile, events, dat)
import System.Environment (getArgs)

main :: IO ()
main = do
  [path] <- getArgs
  Right log' <- readEventLogFromFile path
  print (length (events (dat log')))
