# Shared by this session's calls 4 and 5: a tune's best config per problem (its --json summary on stdout).
tune_summary() { python3 -c "
import json,sys
for p in json.load(open(sys.argv[1]))['problems']:
    b=p.get('best') or {}
    print(p['problem'], 'evaluated', p['evaluated'], 'failed', p['failed'], b.get('name'), b.get('median_us'), 'us')
" "$1"; }
