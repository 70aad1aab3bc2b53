-- A short run for eventlogs that hold no heap profile: a time profile (-p -l),
-- ticky counters (-ticky, +RTS -lT) or scheduler events only (+RTS -l).
import Data.List (foldl')

main :: IO ()
main = do
  let xs = [1 .. 200000 :: Int]
      total = foldl' (+) 0 (map (* 3) xs)
  print (total `mod` 1000)
  print (length (show (sum (map fromIntegral xs :: [Integer]))))
