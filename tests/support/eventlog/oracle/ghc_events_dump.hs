-- ghc-events-dump: prints what the ghc-events library (GHC's reference eventlog parser)
-- decodes from an eventlog, one event per line, so Rust tests can use it as an oracle.
--
-- Format (version 1). Every line is TAB-separated fields. Text fields are UTF-8 bytes with
-- every byte outside 0x21..0x7E, and '%' itself, written as %XX (upper-case hex), so a
-- field never contains a space, TAB or newline and the empty string is written as "".
-- Numbers are decimal. <cap> is the capability ghc-events assigned ("-" for none).
--
--   ghc-events-dump 1
--   type   <id> <size|var> <desc>                     one per header declaration, in order
--   ev     <time> <cap> <kind> <fields...>            one per event, in FILE order
--   done   <number of events>                         decoding finished without error
--   error  <message>                                  readEventLogFromFile returned Left
--   exception <message>                               decoding threw (e.g. undeclared id)
--
-- Event kinds and their fields:
--   block <end_time> <block_cap> <block_size>        EVENT_BLOCK_MARKER (18)
--   begin <era>                                      HeapProfSampleBegin (162)
--   biobegin <era> <census_time>                     HeapBioProfSampleBegin (166)
--   end <era>                                        HeapProfSampleEnd (165)
--   ccsample <prof_id> <residency> <depth> <ids>     HeapProfSampleCostCentre (163); ids
--                                                    comma-separated innermost first, "-" if none
--   strsample <prof_id> <residency> <label>          HeapProfSampleString (164)
--   cc <id> <label> <module> <srcloc> <flags>        HeapProfCostCentre (161)
--   heapprofbegin <prof_id> <period_ns> <breakdown> <7 filters>   (160); breakdown as GHC's code 1..8
--   ipe <info> <table_name> <closure_desc> <ty_desc> <label> <module> <srcloc>   InfoTableProv (169)
--   marker <text>                                    UserMarker (58)
--   message <text>                                   UserMessage (19)
--   args <capset> <n> <arg>...                       ProgramArgs (30)
--   env <capset> <n> <var>...                        ProgramEnv (31)
--   rtsid <capset> <text>                            RtsIdentifier (29)
--   wallclock <capset> <sec> <nsec>                  WallClockTime (43)
--   pid <capset> <pid>                               OsProcessPid (32)
--   gcstart | gcend                                  StartGC (9) / EndGC (10)
--   heapsize|heaplive|heapalloc <capset> <bytes>     HeapSize (50) / HeapLive (51) / HeapAllocated (49)
--   unknown <id>                                     a declared type ghc-events does not know
--   other <constructor>                              anything else
module Main (main) where

import qualified Control.Exception as E
import qualified Data.ByteString as B
import Data.Char (intToDigit, toUpper)
import Data.List (intercalate)
import qualified Data.Text as T
import qualified Data.Text.Encoding as TE
import qualified Data.Vector.Unboxed as VU
import Data.Word (Word8)
import GHC.RTS.Events
import System.Environment (getArgs)
import System.Exit (exitWith, ExitCode (..))
import System.IO

esc :: T.Text -> String
esc t
  | B.null bs = "\"\""
  | otherwise = concatMap escByte (B.unpack bs)
  where
    bs = TE.encodeUtf8 t

escByte :: Word8 -> String
escByte b
  | b >= 0x21 && b <= 0x7e && b /= 0x25 = [toEnum (fromIntegral b)]
  | otherwise = ['%', hex (b `div` 16), hex (b `mod` 16)]
  where
    hex = toUpper . intToDigit . fromIntegral

escS :: String -> String
escS = esc . T.pack

breakdownCode :: HeapProfBreakdown -> Int
breakdownCode b = case b of
  HeapProfBreakdownCostCentre -> 1
  HeapProfBreakdownModule -> 2
  HeapProfBreakdownClosureDescr -> 3
  HeapProfBreakdownTypeDescr -> 4
  HeapProfBreakdownRetainer -> 5
  HeapProfBreakdownBiography -> 6
  HeapProfBreakdownClosureType -> 7
  HeapProfBreakdownInfoTable -> 8

fields :: EventInfo -> [String]
fields e = case e of
  EventBlock et c sz -> ["block", show et, show c, show sz]
  HeapProfSampleBegin era -> ["begin", show era]
  HeapBioProfSampleBegin era t -> ["biobegin", show era, show t]
  HeapProfSampleEnd era -> ["end", show era]
  HeapProfSampleCostCentre pid res depth stack ->
    [ "ccsample", show pid, show res, show depth
    , if VU.null stack then "-" else intercalate "," (map show (VU.toList stack)) ]
  HeapProfSampleString pid res label -> ["strsample", show pid, show res, esc label]
  HeapProfCostCentre cid label modl loc (HeapProfFlags fl) ->
    ["cc", show cid, esc label, esc modl, esc loc, show fl]
  HeapProfBegin pid period bd f1 f2 f3 f4 f5 f6 f7 ->
    ["heapprofbegin", show pid, show period, show (breakdownCode bd)] ++ map esc [f1, f2, f3, f4, f5, f6, f7]
  InfoTableProv info name cd ty lbl modl loc ->
    ["ipe", show info, esc name, show cd, esc ty, esc lbl, esc modl, esc loc]
  UserMarker t -> ["marker", esc t]
  UserMessage t -> ["message", esc t]
  ProgramArgs cs as -> ["args", show cs, show (length as)] ++ map esc as
  ProgramEnv cs as -> ["env", show cs, show (length as)] ++ map esc as
  RtsIdentifier cs t -> ["rtsid", show cs, esc t]
  WallClockTime cs s ns -> ["wallclock", show cs, show s, show ns]
  OsProcessPid cs p -> ["pid", show cs, show p]
  StartGC -> ["gcstart"]
  EndGC -> ["gcend"]
  HeapSize cs b -> ["heapsize", show cs, show b]
  HeapLive cs b -> ["heaplive", show cs, show b]
  HeapAllocated cs b -> ["heapalloc", show cs, show b]
  UnknownEvent r -> ["unknown", show r]
  other -> ["other", takeWhile (/= ' ') (show other)]

-- The whole line is forced before any of it is written: a decoding exception inside
-- an event must not leave half a line behind.
line :: [String] -> IO ()
line parts = do
  let text = intercalate "\t" parts
  _ <- E.evaluate (length text)
  putStrLn text

main :: IO ()
main = do
  hSetEncoding stdout utf8
  hSetBuffering stdout (BlockBuffering Nothing)
  argv <- getArgs
  path <- case argv of
    [p] -> return p
    _ -> hPutStrLn stderr "usage: ghc-events-dump FILE.eventlog" >> exitWith (ExitFailure 64)
  line ["ghc-events-dump", "1"]
  result <- readEventLogFromFile path
  case result of
    Left err -> line ["error", escS err] >> hFlush stdout >> exitWith (ExitFailure 3)
    Right (EventLog (Header types) (Data evs)) -> do
      let declared t = line ["type", show (num t), maybe "var" show (size t), esc (desc t)]
          event ev = line ("ev" : show (evTime ev) : maybe "-" show (evCap ev) : fields (evSpec ev))
          go :: Int -> [Event] -> IO Int
          go n [] = return n
          go n (ev : rest) = event ev >> go (n + 1) rest
      outcome <- E.try (mapM_ declared types >> go 0 evs)
      case outcome of
        Right n -> line ["done", show n]
        Left ex -> do
          line ["exception", escS (show (ex :: E.SomeException))]
          hFlush stdout
          exitWith (ExitFailure 4)
