# bash completion for docs-unified-search (generated from the command specs)
# Load with: source <(docs-unified-search completion bash)
_docs_unified_search_choices() {
  case "$1" in
      --output) echo "plain json json_pretty" ;;
    *) return 1 ;;
  esac
}
_docs_unified_search() {
  local line cur word cmd="" opts values expect="" skip=0 i at=0 pos=0
  local -a words args
  line="${COMP_LINE:0:COMP_POINT}"
  read -r -a words <<< "$line"
  [[ "$line" == *" " ]] && words+=("")
  cur="${words[${#words[@]}-1]}"
  for ((i = 1; i < ${#words[@]} - 1; i++)); do
    word="${words[i]}"
    if ((skip)); then skip=0; continue; fi
    case "$word" in
      --config-dir|--nextcloud|--host-db|--table-prefix|--host-url|--log-file|--lang) skip=1 ;;
      -*) ;;
      *) cmd="$word"; at=$i; break ;;
    esac
  done
  local candidates
  if [[ -z "$cmd" ]] && ((skip)); then
    # The value of a global option (a directory, a file, a URL).
    COMPREPLY=($(compgen -f -- "$cur"))
    return 0
  elif [[ -z "$cmd" ]]; then
    if [[ "$cur" == -* ]]; then candidates="--version -V --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang --no-color --quiet --help --version"; else candidates="docs_unified_search:setup setup docs_unified_search:test test docs_unified_search:search search docs_unified_search:why why docs_unified_search:who who docs_unified_search:check check config:app:get config:get config:app:set config:set config:app:delete config:delete setupchecks checks maintenance:repair repair serve http docs_unified_search:bridge-secret bridge:secret completion help"; fi
  else
    case "$cmd" in
      docs_unified_search:setup|setup) opts="--url --token-stdin --token-env --archive-account --allow-local --no-allow-local --always-search --no-always-search --json --output --version -V --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang --no-color --quiet --help"; values="--url --token-env --archive-account --output --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang"; args=() ;;
      docs_unified_search:test|test) opts="--json --output --version -V --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang --no-color --quiet --help"; values="--output --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang"; args=() ;;
      docs_unified_search:search|search) opts="--explain --limit --cursor --since --until --json --output --version -V --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang --no-color --quiet --help"; values="--limit --cursor --since --until --output --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang"; args=("" "") ;;
      docs_unified_search:why|why) opts="--json --output --version -V --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang --no-color --quiet --help"; values="--output --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang"; args=("" "") ;;
      docs_unified_search:who|who) opts="--all --include-blocked --user --group --json --output --version -V --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang --no-color --quiet --help"; values="--user --group --output --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang"; args=("") ;;
      docs_unified_search:check|check) opts="--min-coverage --json --output --version -V --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang --no-color --quiet --help"; values="--min-coverage --output --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang"; args=() ;;
      config:app:get|config:get) opts="--default-value --details --json --output --version -V --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang --no-color --quiet --help"; values="--default-value --output --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang"; args=("docs_unified_search docs_sync" "docs_url allow_local archive_owner always_search docs_version docs_api_version diagnostics diagnostics_pending enabled installed_version host_db table_prefix nextcloud_dir host_url target_user") ;;
      config:app:set|config:set) opts="--value --type --lazy --no-lazy --sensitive --no-sensitive --update-only --json --output --version -V --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang --no-color --quiet --help"; values="--value --type --output --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang"; args=("docs_unified_search" "allow_local archive_owner always_search docs_version docs_api_version diagnostics diagnostics_pending enabled installed_version host_db table_prefix nextcloud_dir host_url") ;;
      config:app:delete|config:delete) opts="--error-if-not-exists --json --output --version -V --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang --no-color --quiet --help"; values="--output --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang"; args=("docs_unified_search" "docs_url allow_local archive_owner always_search docs_version docs_api_version diagnostics diagnostics_pending enabled installed_version host_db table_prefix nextcloud_dir host_url") ;;
      setupchecks|checks) opts="--json --output --version -V --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang --no-color --quiet --help"; values="--output --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang"; args=() ;;
      maintenance:repair|repair) opts="--json --output --version -V --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang --no-color --quiet --help"; values="--output --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang"; args=() ;;
      serve|http) opts="--listen --cache --cache-prefix --trust-proxy --service-url --version -V --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang --no-color --quiet --help"; values="--listen --cache --cache-prefix --trust-proxy --service-url --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang"; args=() ;;
      docs_unified_search:bridge-secret|bridge:secret) opts="--rotate --json --output --version -V --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang --no-color --quiet --help"; values="--output --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang"; args=() ;;
      completion) opts="--version -V --config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang --no-color --quiet --help"; values="--config-dir --nextcloud --host-db --table-prefix --host-url --log-file --lang"; args=("bash zsh") ;;
      help) opts="--help"; values=""; args=("docs_unified_search:setup setup docs_unified_search:test test docs_unified_search:search search docs_unified_search:why why docs_unified_search:who who docs_unified_search:check check config:app:get config:get config:app:set config:set config:app:delete config:delete setupchecks checks maintenance:repair repair serve http docs_unified_search:bridge-secret bridge:secret completion environment") ;;
      *) opts="--help"; values=""; args=() ;;
    esac
    # Which word is completed: the value of an option, or the n-th argument of the command.
    for ((i = at + 1; i < ${#words[@]} - 1; i++)); do
      word="${words[i]}"
      if [[ -n "$expect" ]]; then expect=""; continue; fi
      if [[ " $values " == *" $word "* ]]; then expect="$word"; continue; fi
      [[ "$word" == -* ]] || ((pos++))
    done
    if [[ -n "$expect" ]]; then
      candidates="$(_docs_unified_search_choices "$expect")" || { COMPREPLY=($(compgen -f -- "$cur")); return 0; }
    elif [[ "$cur" == --*=* ]]; then
      # bash splits --output=js at "=": only the value is completed.
      candidates="$(_docs_unified_search_choices "${cur%%=*}")" || return 0
      COMPREPLY=($(compgen -W "$candidates" -- "${cur#*=}"))
      return 0
    elif [[ "$cur" == -* ]]; then
      candidates="$opts"
    elif ((pos < ${#args[@]})) && [[ -n "${args[pos]}" ]]; then
      candidates="${args[pos]}"
    else
      COMPREPLY=($(compgen -f -- "$cur"))
      return 0
    fi
  fi
  COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
  # bash splits words at ":"; offer only the part after the last one the user typed.
  if [[ "$cur" == *:* && "$COMP_WORDBREAKS" == *:* ]]; then
    local prefix="${cur%"${cur##*:}"}"
    for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]="${COMPREPLY[i]#"$prefix"}"; done
  fi
  return 0
}
complete -o default -F _docs_unified_search docs-unified-search dus
