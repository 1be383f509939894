//! The `Examples:` section of each command's `--help` (and of its man page).

pub const PF1E: &str = "\
Examples:
  pf1e run data/sweeps/full_analysis.yaml --out report/
  pf1e sim --map data/maps/sample_arena.yaml --side players data/monsters/goblin.json --side monsters data/monsters/orc.json
  pf1e completions bash > ~/.local/share/bash-completion/completions/pf1e
  pf1e man --out /usr/local/share/man/man1";

pub const SIM: &str = "\
Examples:
  pf1e sim --map data/maps/sample_arena.yaml \\
    --side players data/monsters/goblin.json data/monsters/goblin.json data/monsters/goblin.json \\
    --side monsters data/monsters/orc.json data/monsters/orc.json
  pf1e sim --map data/maps/sample_arena.yaml --side players data/pcs/fighter.json \\
    --side monsters data/monsters/orc.json --runs 10000 --seed 7 --json
  pf1e sim … --transcript --runs 1 --lang fr";

pub const BENCH: &str = "\
Examples:
  pf1e bench
  pf1e bench --runs 40000 --threads 1 --json";

pub const RUN: &str = "\
Examples:
  pf1e run data/sweeps/full_analysis.yaml --out report/
  pf1e run data/sweeps/optimize.yaml --top 20 --format md
  pf1e run data/sweeps/danger_map.yaml --json --no-cache | jq .results";

pub const COORDINATOR: &str = "\
Examples:
  pf1e coordinator --listen 0.0.0.0:7070 --db pf1e.redb --metrics-listen 0.0.0.0:9090
  PF1E_TOKEN=secret pf1e coordinator --db pf1e.redb --tls-cert cert.pem --tls-key key.pem";

pub const WORKER: &str = "\
Examples:
  pf1e worker --coordinator http://coordinator:7070
  pf1e worker --coordinator https://coordinator:7070 --tls-ca ca.pem --token-file token --threads 8";

pub const CTL: &str = "\
Examples:
  pf1e ctl --coordinator http://127.0.0.1:7070 submit data/sweeps/full_analysis.yaml --watch
  pf1e ctl status
  pf1e ctl results 3 --out report/ --coordinator http://127.0.0.1:7070
  PF1E_COORDINATOR=http://127.0.0.1:7070 pf1e ctl workers --json";

pub const CTL_SUBMIT: &str = "\
Examples:
  pf1e ctl submit data/sweeps/full_analysis.yaml
  pf1e ctl submit data/sweeps/optimize.yaml --watch --json";

pub const CTL_WATCH: &str = "\
Examples:
  pf1e ctl watch 3
  pf1e ctl watch 3 --cells > cells.jsonl";

pub const CTL_STATUS: &str = "\
Examples:
  pf1e ctl status
  pf1e ctl status 3 --json";

pub const CTL_RESULTS: &str = "\
Examples:
  pf1e ctl results 3
  pf1e ctl results 3 --format md --top 5
  pf1e ctl results 3 --out report/";

pub const CTL_CANCEL: &str = "\
Examples:
  pf1e ctl cancel 3
  pf1e ctl cancel 3 --json";

pub const CTL_WORKERS: &str = "\
Examples:
  pf1e ctl workers
  pf1e ctl workers --json";

pub const CTL_GC: &str = "\
Examples:
  pf1e ctl gc --keep 10
  pf1e ctl gc --keep 0 --json

The coordinator removes, in one transaction of its own database, the
journals (bundle, state, results) of the ended sweeps past the newest N;
running sweeps and cached shards stay. `pf1e cache gc` does the same on a
stopped coordinator's file.";

pub const CTL_HEALTH: &str = "\
Examples:
  pf1e ctl health --coordinator http://127.0.0.1:7070
  pf1e ctl health --service pf1e.v1.WorkerService --json";

pub const BENCH_SERVICE: &str = "\
Examples:
  pf1e bench-service
  pf1e bench-service --which resume --cells 2000 --json";

pub const CACHE: &str = "\
Examples:
  pf1e cache
  pf1e cache gc --keep 5
  pf1e cache clear
  pf1e cache --db other.redb --json";

pub const COMPLETIONS: &str = "\
Examples:
  pf1e completions bash > ~/.local/share/bash-completion/completions/pf1e
  pf1e completions zsh > ~/.zfunc/_pf1e
  pf1e completions fish > ~/.config/fish/completions/pf1e.fish";

pub const MAN: &str = "\
Examples:
  pf1e man | man -l -
  pf1e man --out /usr/local/share/man/man1";

pub const STRATEGY: &str = "\
Examples:
  pf1e strategy compile \"focus their healer, fall back below 30 %\"
  pf1e strategy compile \"gang up on the weakest armour\" --side adversary --json
  PF1E_LLM_BASE_URL=http://127.0.0.1:8080/v1 PF1E_LLM_MODEL=local pf1e strategy compile \"charge!\"";

pub const REPLAY: &str = "\
Examples:
  pf1e sim --map data/maps/sample_arena.yaml --side players data/monsters/goblin.json \\
    --side monsters data/monsters/orc.json --runs 5 --llm-side players --llm-log showcase.jsonl
  pf1e replay showcase.jsonl
  pf1e replay showcase.jsonl --transcript --json";

pub const DAY: &str = "\
Examples:
  pf1e day data/days/apl4.yaml
  pf1e day data/days/tower.yaml --runs 2000 --seed 3 --lang fr
  pf1e day data/days/apl4.yaml --json";

pub const DESIGN: &str = "\
Examples:
  pf1e design --party data/pcs/esha.json data/pcs/harvie.json data/pcs/oni.json data/pcs/nairda.json \\
      --pool data/monsters --type undead --cr 1 3 --target hard --map data/maps/field.yaml
  pf1e design --party data/pcs/esha.json data/pcs/oni.json --pool data/monsters --target 'p_some_pc_dies=0.1..0.4' \\
      --target 'p_tpk<0.05' --map data/maps/field.yaml --budget 20000 --out report/
  pf1e design ... --print-sweep > my-design.yaml   # the same search as a sweep file for pf1e run";

pub const IMPORT: &str = "\
Examples:
  pf1e import foundry oni.foundry.json --out data/pcs/oni.json
  pf1e import foundry sheet.json --spells /path/to/pf1e/data/spells > combatant.json";
