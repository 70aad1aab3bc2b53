-- Sleeper: allocates, sleeps (threadDelay), allocates, waits for a child process
-- (sleep 0.3), allocates again.  The program is idle for about 0.6 s of wall-clock
-- time in the middle of its run, which its mutator CPU time (the .hp's x axis)
-- does not count.
module Main (main) where

import Control.Concurrent (threadDelay)
import qualified Data.Map.Strict as M
import System.Process (callProcess)

build :: Int -> Int -> M.Map Int Int
build seed n = M.fromList [((i * 7919 + seed) `mod` (4 * n), i) | i <- [1 .. n]]

main :: IO ()
main = do
  let m1 = build 1 150000
  print (M.size m1)
  threadDelay 300000
  let m2 = build 2 200000
  print (M.foldl' (+) 0 m2)
  callProcess "sleep" ["0.3"]
  let m3 = M.union m1 (build 3 150000)
  print (M.size m3, M.size m1)
