-- LeakMapFixed: ../../../../shared/corpus/programs/LeakMap.hs without its leak, for the
-- CI gate's tests (hp2ps --check; tests/data/gate/README.md). The same program, the same
-- cost centres, with the two changes that fix the classic space leak: a strict map
-- (Data.Map.Strict.insertWith stores evaluated counts, not (+) thunks) and foldl'
-- (no chain of thunks in countWords and lazySum).
module Main (main) where

import qualified Data.Map.Strict as M
import Data.List (foldl')

mkWord :: Int -> String
mkWord i = 'w' : show ((i * 7919) `mod` 3001)

wordStream :: Int -> [String]
wordStream n = map mkWord [1 .. n]

countWords :: [String] -> M.Map String Int
countWords = foldl' step M.empty
  where
    step m w = M.insertWith (+) w 1 m

lazySum :: [Integer] -> Integer
lazySum = foldl' (+) 0

averageLength :: M.Map String Int -> Double
averageLength m =
  fromIntegral (sum (map length (M.keys m))) / fromIntegral (max 1 (M.size m))

main :: IO ()
main = do
  let m = countWords (wordStream 150000)
  print (M.size m)
  print (M.foldr (+) 0 m)
  print (averageLength m)
  print (lazySum [1 .. 800000])
  let m2 = M.map (* 2) (countWords (wordStream 80000))
  print (M.foldr max 0 m2)
  print (M.size (M.union m m2))
