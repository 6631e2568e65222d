import type { CommandModel, OptionModel, SuiteModel } from './command-model.js';

/** Completion for bash and zsh, generated from the command specs so that no command or option is forgotten. */

function longOptions(list: readonly OptionModel[]): string[] {
  return list.flatMap((option) => [option.long, option.short]).filter((flag): flag is string => flag !== null);
}

function valueOptions(list: readonly OptionModel[]): string[] {
  return list.filter((option) => option.takesValue).flatMap((option) => [option.long, option.short]).filter((flag): flag is string => flag !== null);
}

function names(command: CommandModel): string[] {
  return [command.name, ...command.aliases];
}

function shellWords(words: readonly string[]): string {
  return words.join(' ');
}

export function bashCompletion(suite: SuiteModel, binaries: readonly string[]): string {
  const fn = `_${suite.program.replace(/[^A-Za-z0-9]/g, '_')}`;
  const commands = suite.commands.flatMap(names);
  const globalValues = valueOptions(suite.globalOptions);
  const cases = suite.commands
    .map((command) => {
      const opts = [...longOptions(command.options), ...longOptions(suite.globalOptions), '--help'];
      return `    ${names(command).join('|')}) opts="${shellWords(opts)}"; values="${shellWords([...valueOptions(command.options), ...globalValues])}" ;;`;
    })
    .join('\n');
  return `# bash completion for ${suite.program} (generated from the command specs)
# Load with: source <(${suite.program} completion bash)
${fn}() {
  local line cur word cmd="" opts values skip=0 i
  local -a words
  line="\${COMP_LINE:0:COMP_POINT}"
  read -r -a words <<< "$line"
  [[ "$line" == *" " ]] && words+=("")
  cur="\${words[\${#words[@]}-1]}"
  for ((i = 1; i < \${#words[@]} - 1; i++)); do
    word="\${words[i]}"
    if ((skip)); then skip=0; continue; fi
    case "$word" in
      ${globalValues.length > 0 ? globalValues.join('|') : '--no-such-option'}) skip=1 ;;
      -*) ;;
      *) cmd="$word"; break ;;
    esac
  done
  local candidates
  if [[ -z "$cmd" ]]; then
    if [[ "$cur" == -* ]]; then candidates="${shellWords([...longOptions(suite.globalOptions), '--help', '--version'])}"; else candidates="${shellWords(commands)}"; fi
  else
    case "$cmd" in
${cases}
    *) opts="--help"; values="" ;;
    esac
    if [[ "$cur" == -* ]]; then candidates="$opts"; else COMPREPLY=($(compgen -f -- "$cur")); return 0; fi
  fi
  COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
  # bash splits words at ":"; offer only the part after the last one the user typed.
  if [[ "$cur" == *:* && "$COMP_WORDBREAKS" == *:* ]]; then
    local prefix="\${cur%"\${cur##*:}"}"
    for i in "\${!COMPREPLY[@]}"; do COMPREPLY[i]="\${COMPREPLY[i]#"$prefix"}"; done
  fi
  return 0
}
complete -o default -F ${fn} ${binaries.join(' ')}
`;
}

/** zsh's _arguments spec of one option: `--flag[description]` plus a value slot. */
function zshOption(option: OptionModel): string {
  const description = option.description.replace(/[[\]'\\:]/g, (c) => (c === "'" ? "'\\''" : `\\${c}`));
  const flag = option.long ?? option.short ?? option.flags;
  const value = option.takesValue ? `:${flag.replace(/^-+/, '')}:_files` : '';
  return `'${flag}[${description}]${value}'`;
}

export function zshCompletion(suite: SuiteModel, binaries: readonly string[]): string {
  const fn = `_${suite.program.replace(/[^A-Za-z0-9]/g, '_')}`;
  const describe = suite.commands
    .flatMap((command) => names(command).map((name) => `    '${name.replace(/:/g, '\\:')}:${command.summary.replace(/'/g, "'\\''")}'`))
    .join('\n');
  const cases = suite.commands
    .map((command) => `      ${names(command).map((name) => name.replace(/:/g, '\\:')).join('|')})\n        _arguments ${[...command.options.map(zshOption), "'--help[show help]'", "'*:file:_files'"].join(' ')} ;;`)
    .join('\n');
  return `#compdef ${binaries.join(' ')}
# zsh completion for ${suite.program} (generated from the command specs)
# Install: ${suite.program} completion zsh > "\${fpath[1]}/_${suite.program}"
${fn}() {
  local context state state_descr line
  typeset -A opt_args
  local -a commands
  commands=(
${describe}
  )
  _arguments -C ${suite.globalOptions.map(zshOption).join(' ')} '--help[show help]' '1: :->command' '*:: :->args'
  case $state in
    command) _describe -t commands 'command' commands ;;
    args)
      case $line[1] in
${cases}
      esac ;;
  esac
}
${fn} "$@"
`;
}
