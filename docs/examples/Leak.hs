-- Leak.hs: groups numbers by their last three digits, keeping every string.
import qualified Data.Map as M
import Data.List (foldl')

groups :: Int -> M.Map Int [String]
groups n = foldl' step M.empty [1 .. n]
  where step m k = M.insertWith (++) (k `mod` 1000) [show k] m

main :: IO ()
main = do
  let table = groups 1000000
  print (M.size table)
  print (sum (map (sum . map length) (M.elems table)))
