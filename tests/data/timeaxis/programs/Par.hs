-- Par: two threads build maps at the same time; with -N2 both capabilities run
-- Haskell code most of the time, so mutator CPU time grows about twice as fast as
-- wall-clock time.
module Main (main) where

import Control.Concurrent
import Control.Monad (forM)
import Data.List (foldl')
import qualified Data.Map.Strict as M

work :: Int -> Int
work seed = M.foldl' (+) 0 (foldl' step M.empty [1 .. 300000])
  where
    step m i = M.insertWith (+) ((i * 7919 + seed) `mod` 60000) i m

main :: IO ()
main = do
  vs <- forM [1, 2] $ \s -> do
    v <- newEmptyMVar
    _ <- forkIO (putMVar v $! work s)
    return v
  rs <- mapM takeMVar vs
  print rs
