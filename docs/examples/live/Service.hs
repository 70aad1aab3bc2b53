-- A small "service" that leaks slowly, for following live with hp2ps --serve
-- (docs/guide.md, "Following a running program"; scripts/live-latency.sh).
--
-- Every round (about 50 ms) it answers a "request": some work on the CPU (so that the
-- runtime's ticker, and with it the heap census, keeps running: an idle -threaded
-- program takes no census), a working set of the last rounds' buffers that it lets go
-- of (a sawtooth), and a cache of every answer that it never lets go of (the leak).
-- A marker every 100 rounds.
--
--   ghc -O -threaded -rtsopts -eventlog Service.hs -o service
--   ./service SECONDS +RTS -hT -l --eventlog-flush-interval=1 -i0.1 -RTS
module Main (main) where

import Control.Concurrent (threadDelay)
import Control.Exception (evaluate)
import Control.Monad (forM_, when)
import Data.IORef
import Data.List (foldl')
import qualified Data.Map.Strict as Map
import Debug.Trace (traceMarkerIO)
import System.Environment (getArgs)

answer :: Int -> String
answer n = concatMap show [n .. n + 100]

-- Some tens of milliseconds of work (-O).
busy :: Int -> Int
busy i = foldl' (\a x -> (a + x * i) `mod` 1000003) 0 [1 .. 4000000]

main :: IO ()
main = do
  args <- getArgs
  let seconds = case args of { (s:_) -> read s; _ -> 60 }
      rounds = seconds * 20 :: Int
  cache <- newIORef (Map.empty :: Map.Map Int String)
  window <- newIORef ([] :: [[Int]])
  forM_ [1 .. rounds] $ \i -> do
    _ <- evaluate (busy i)
    let buffer = map (* i) [1 .. 3000 + 200 * (i `mod` 25)] :: [Int]
    _ <- evaluate (sum buffer)
    -- The last rounds' buffers are kept (25, then 5): a working set that comes and goes.
    -- (The list is forced: a lazy `take` would keep every buffer ever made.)
    modifyIORef' window (\w -> let w' = take (if i `mod` 100 < 50 then 25 else 5) (buffer : w)
                               in length w' `seq` w')
    -- Every answer is kept, whole (the leak).
    let a = answer i
    _ <- evaluate (length a)
    modifyIORef' cache (Map.insert i a)
    when (i `mod` 100 == 0) $ traceMarkerIO ("checkpoint " ++ show (i `div` 100))
    threadDelay 10000
  n <- Map.size <$> readIORef cache
  w <- length <$> readIORef window
  print (n, w)
