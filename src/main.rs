//! The `hp2ps` command: the library's `cli` feature (`src/cli/`, `src/run/`), run.

fn main() -> std::process::ExitCode {
    hp2ps::command_main()
}
