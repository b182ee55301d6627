# bash completion for abidep(8): objects, their commands and options.
# Installed as .../bash-completion/completions/abidep (loaded on demand).
# Keep in step with each object's --help; tests/pkg/run checks that every
# option a --help shows is completed here and documented in its man page.
# shellcheck shell=bash

_abidep_tables_opts() {
	local common="-t --tables -j --json -p --pretty -h --help"
	case $1 in
	validate) echo "$common --strict --no-strict -q --quiet" ;;
	list) echo "$common --strict --status" ;;
	show) echo "$common --strict" ;;
	resolve) echo "$common --strict --sysfs" ;;
	export) echo "$common --abi --c -o --output --users -d --db --scan-packages --cache --root --since" ;;
	esac
}

# _abidep_reply COMPGEN-ARGS: the candidates for $cur, one per line (file
# names with spaces stay whole).
_abidep_reply() {
	mapfile -t COMPREPLY < <(compgen "$@" -- "$cur")
}

_abidep() {
	local cur prev obj="" sub="" i w
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}

	# The object is the first word that is not a global option; for
	# "tables", the command is the word after it.
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ -z $obj ]]; then
			[[ $w == -* ]] || obj=$w
		elif [[ $obj == tables && -z $sub && $w != -* ]]; then
			sub=$w
		fi
	done

	# Option arguments.
	case $prev in
	-d | --db | -o | --output | -t | --tables | --scan-packages | --prometheus-netrc)
		_abidep_reply -f
		return ;;
	--sysfs | --root | --scan | --save | --cache | --scan-packages)
		_abidep_reply -d
		return ;;
	--status)
		if [[ $obj == tables ]]; then
			_abidep_reply -W "deprecated removed"
			return
		fi ;;
	--format)
		if [[ $obj == check ]]; then
			_abidep_reply -W "text json csv markdown html"
		elif [[ $obj == scan ]]; then
			_abidep_reply -W "text json csv markdown html dd-list"
		else
			_abidep_reply -W "text json csv markdown prometheus html"
		fi
		return ;;
	--mode)
		_abidep_reply -W "fail hide"
		return ;;
	-i | --interval | --duration | --entry | --since | --until | --now | --quiet-days | --for | \
	--kernel | --threads | --timeout-ms | --top | --max-entries | --uid-quota | --slots | \
	--max-size | --max-unpacked | --prometheus | --prometheus-timeout | --prometheus-memory)
		return ;;
	esac

	case $obj in
	"")
		if [[ $cur == -* ]]; then
			_abidep_reply -W "-j --json -p --pretty -V --version -h --help"
		else
			_abidep_reply -W "tables trace report scan check merge brownout survey help"
		fi ;;
	tables)
		if [[ -z $sub ]]; then
			_abidep_reply -W "validate list show resolve export -j --json -p --pretty
				-h --help"
		elif [[ $cur == -* ]]; then
			_abidep_reply -W "$(_abidep_tables_opts "$sub")"
		elif [[ $sub == validate ]]; then
			_abidep_reply -f
		fi ;;
	trace)
		_abidep_reply -W "--pin --sync --status --stop -d --db -i --interval
			--duration -t --tables -q --quiet --max-entries --uid-quota --slots --kprobe --early --adopt -j --json -p --pretty
			-h --help" ;;
	report)
		_abidep_reply -W "-d --db -t --tables --root --entry --since --until --now --format -o --output
			-w --wide --by-host -j --json -p --pretty -h --help" ;;
	scan)
		if [[ $cur == -* ]]; then
			_abidep_reply -W "-t --tables --weak -l --files --all-bytes --threads --max-size
				--packages --cache --max-unpacked --by-package --format -o --output -w --wide
				--print-patterns -j --json -p --pretty -h --help"
		else
			_abidep_reply -d
		fi ;;
	survey)
		if [[ $cur == -* ]]; then
			_abidep_reply -W "--timeout-ms --top --save -j --json -p --pretty
				-h --help"
		else
			_abidep_reply -d
		fi ;;
	check)
		_abidep_reply -W "-d --db -t --tables --prometheus --prometheus-timeout --prometheus-memory
			--prometheus-netrc --entry --now --quiet-days --kernel
			--scan --scan-packages --cache --root --count-sweeps --allow-late-boot --format -o
			--output -w --wide --by-host
			-j --json -p --pretty -h --help" ;;
	merge)
		if [[ $cur == -* ]]; then
			_abidep_reply -W "-d --db -o --output -j --json -p --pretty -h --help"
		else
			_abidep_reply -f
		fi ;;
	brownout)
		[[ $cur == -* ]] && _abidep_reply -W "--for --mode --wait --off --status
			-j --json -p --pretty -h --help" ;;
	help)
		_abidep_reply -W "tables trace report scan check merge brownout survey" ;;
	esac
	return 0
}
complete -o filenames -F _abidep abidep
