import type { CommandModel, OptionModel, SuiteModel } from './command-model.js';
import { HELP_TOPICS } from './environment.js';

/** Completion for bash and zsh, generated from the command specs so that no command or option is forgotten. */

function longOptions(list: readonly OptionModel[]): string[] {
  return list.flatMap((option) => [option.long, option.short]).filter((flag): flag is string => flag !== null);
}

function valueOptions(list: readonly OptionModel[]): string[] {
  return list
    .filter((option) => option.takesValue)
    .flatMap((option) => [option.long, option.short])
    .filter((flag): flag is string => flag !== null);
}

function names(command: CommandModel): string[] {
  return [command.name, ...command.aliases];
}

function shellWords(words: readonly string[]): string {
  return words.join(' ');
}

/** Options that take one of a fixed set of values (`--output`), across the suite, with those values. */
function optionChoices(suite: SuiteModel): Map<string, readonly string[]> {
  const choices = new Map<string, readonly string[]>();
  for (const option of [...suite.globalOptions, ...suite.commands.flatMap((command) => command.options)]) {
    if (option.long !== null && option.choices.length > 0 && !choices.has(option.long)) choices.set(option.long, option.choices);
  }
  return choices;
}

/** The words `help` completes: every command name and the help topics. */
function helpWords(suite: SuiteModel): string[] {
  return [...suite.commands.flatMap(names), ...Object.keys(HELP_TOPICS)];
}

export function bashCompletion(suite: SuiteModel, binaries: readonly string[]): string {
  const fn = `_${suite.program.replace(/[^A-Za-z0-9]/g, '_')}`;
  const commands = [...suite.commands.flatMap(names), 'help'];
  const globalValues = valueOptions(suite.globalOptions);
  const argumentLists = (command: CommandModel): string => command.arguments.map((argument) => `"${shellWords(argument.values)}"`).join(' ');
  const cases = suite.commands
    .map((command) => {
      const opts = [...longOptions(command.options), ...longOptions(suite.globalOptions), '--help'];
      return `      ${names(command).join('|')}) opts="${shellWords(opts)}"; values="${shellWords([...valueOptions(command.options), ...globalValues])}"; args=(${argumentLists(command)}) ;;`;
    })
    .join('\n');
  const choiceCases = [...optionChoices(suite)].map(([option, values]) => `      ${option}) echo "${shellWords(values)}" ;;`).join('\n');
  return `# bash completion for ${suite.program} (generated from the command specs)
# Load with: source <(${suite.program} completion bash)
${fn}_choices() {
  case "$1" in
${choiceCases}
    *) return 1 ;;
  esac
}
${fn}() {
  local line cur word cmd="" opts values expect="" skip=0 i at=0 pos=0
  local -a words args
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
      *) cmd="$word"; at=$i; break ;;
    esac
  done
  local candidates
  if [[ -z "$cmd" ]] && ((skip)); then
    # The value of a global option (a directory, a file, a URL).
    COMPREPLY=($(compgen -f -- "$cur"))
    return 0
  elif [[ -z "$cmd" ]]; then
    if [[ "$cur" == -* ]]; then candidates="${shellWords([...longOptions(suite.globalOptions), '--help', '--version'])}"; else candidates="${shellWords(commands)}"; fi
  else
    case "$cmd" in
${cases}
      help) opts="--help"; values=""; args=("${shellWords(helpWords(suite))}") ;;
      *) opts="--help"; values=""; args=() ;;
    esac
    # Which word is completed: the value of an option, or the n-th argument of the command.
    for ((i = at + 1; i < \${#words[@]} - 1; i++)); do
      word="\${words[i]}"
      if [[ -n "$expect" ]]; then expect=""; continue; fi
      if [[ " $values " == *" $word "* ]]; then expect="$word"; continue; fi
      [[ "$word" == -* ]] || ((pos++))
    done
    if [[ -n "$expect" ]]; then
      candidates="$(${fn}_choices "$expect")" || { COMPREPLY=($(compgen -f -- "$cur")); return 0; }
    elif [[ "$cur" == --*=* ]]; then
      # bash splits --output=js at "=": only the value is completed.
      candidates="$(${fn}_choices "\${cur%%=*}")" || return 0
      COMPREPLY=($(compgen -W "$candidates" -- "\${cur#*=}"))
      return 0
    elif [[ "$cur" == -* ]]; then
      candidates="$opts"
    elif ((pos < \${#args[@]})) && [[ -n "\${args[pos]}" ]]; then
      candidates="\${args[pos]}"
    else
      COMPREPLY=($(compgen -f -- "$cur"))
      return 0
    fi
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
  const name = flag.replace(/^-+/, '');
  const value = option.takesValue ? (option.choices.length > 0 ? `:${name}:(${option.choices.join(' ')})` : `:${name}:_files`) : '';
  return `'${flag}[${description}]${value}'`;
}

/** zsh's _arguments specs of a command's arguments: their values where known, else file names. */
function zshArguments(command: CommandModel): string[] {
  return command.arguments.map((argument, i) => `'${i + 1}:${argument.name}:${argument.values.length > 0 ? `(${argument.values.join(' ')})` : '_files'}'`);
}

export function zshCompletion(suite: SuiteModel, binaries: readonly string[]): string {
  const fn = `_${suite.program.replace(/[^A-Za-z0-9]/g, '_')}`;
  const describe = [
    ...suite.commands.flatMap((command) => names(command).map((name) => `    '${name.replace(/:/g, '\\:')}:${command.summary.replace(/'/g, "'\\''")}'`)),
    "    'help:Show the help of a command or a topic (environment)'",
  ].join('\n');
  const cases = suite.commands
    .map(
      (command) =>
        `      ${names(command)
          .map((name) => name.replace(/:/g, '\\:'))
          .join('|')})\n        _arguments ${[...command.options.map(zshOption), "'--help[show help]'", ...zshArguments(command)].join(' ')} ;;`,
    )
    .join('\n');
  const help = `      help)\n        _arguments '1:command:(${helpWords(suite)
    .map((word) => word.replace(/:/g, '\\:'))
    .join(' ')})' ;;`;
  return `#compdef ${binaries.join(' ')}
# zsh completion for ${suite.program} (generated from the command specs)
# Install: ${suite.program} completion zsh > "\${fpath[1]}/_${suite.program}"
# or, for this shell only (after compinit): source <(${suite.program} completion zsh)
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
${help}
      esac ;;
  esac
}
# Sourced (source <(…), eval): register the function. Autoloaded from fpath: complete now.
if [[ \${zsh_eval_context[-1]} == (file|eval) ]]; then
  compdef ${fn} ${binaries.join(' ')}
else
  ${fn} "$@"
fi
`;
}
