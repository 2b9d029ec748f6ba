#!/usr/bin/env bash
# Fills a store with a small, realistic tree of collections and notes, through the notes
# command, for trying notes out and for demos.
set -euo pipefail

readonly PROGRAM=fill-store.sh

usage() {
    cat <<EOF
Usage: Samples/fill-store.sh [--store DIR] [--force]

Fills a notes store with sample collections and notes (Work, Home, Reading), and moves one
note to the trash.

Options:
  --store DIR   The store to fill (default: \$NOTES_STORE).
  --force       Fill it even when it already has items (the samples are added again).
  -h, --help    Show this help.

Environment:
  NOTES        The notes command to use (default: notes on PATH, else the one built in
               .build/release or .build/debug of this package).
  NOTES_STORE  The store, when --store is not given.
EOF
}

fail() {
    echo "$PROGRAM: $*" >&2
    exit "${2:-1}"
}

usage_error() {
    echo "$PROGRAM: $* (see 'Samples/fill-store.sh --help')" >&2
    exit 64
}

STORE=${NOTES_STORE:-}
FORCE=false
while (($# > 0)); do
    case $1 in
        --store)
            (($# >= 2)) && [[ -n $2 ]] || usage_error "--store needs a folder"
            STORE=$2
            shift 2
            ;;
        --store=*) STORE=${1#--store=}; shift ;;
        --force) FORCE=true; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage_error "unknown option '$1'" ;;
    esac
done
[[ -n $STORE ]] || usage_error "give --store DIR or set NOTES_STORE"

# The notes command: $NOTES, else notes on PATH, else a build of this package.
find_notes() {
    local package candidate
    package=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    for candidate in "${NOTES:-}" "$(command -v notes || true)" \
        "$package/.build/release/notes" "$package/.build/debug/notes"; do
        if [[ -n $candidate && -x $candidate ]]; then
            printf '%s\n' "$candidate"
            return
        fi
    done
    fail "cannot find notes: run ./install.sh, or set NOTES to the notes command"
}
NOTES_COMMAND=$(find_notes)

notes() {
    "$NOTES_COMMAND" --store "$STORE" "$@"
}

# Refuse to mix the samples into a store that has items, unless asked to.
if ! $FORCE; then
    listing=$(notes ls --json) && trash=$(notes ls --trash --json) \
        || fail "cannot read the store '$STORE'"
    if [[ $(tr -d ' \n' <<<"$listing$trash") != "[][]" ]]; then
        fail "the store '$STORE' already has items: give --force to add the samples anyway"
    fi
fi

COLLECTIONS=0
NOTES_ADDED=0
NOTE_ID=

# mkcol VARIABLE NAME [PARENT-ID]: makes a collection and sets VARIABLE to its id.
mkcol() {
    local where=() id
    [[ -n ${3:-} ]] && where=(--in "$3")
    id=$(notes mkcol "$2" "${where[@]}")
    printf -v "$1" '%s' "$id"
    COLLECTIONS=$((COLLECTIONS + 1))
}

# note NAME [PARENT-ID] < BODY: adds a note with the body from standard input, and sets
# NOTE_ID to its id.
note() {
    local where=()
    [[ -n ${2:-} ]] && where=(--in "$2")
    NOTE_ID=$(notes add "$1" "${where[@]}" --body-file -)
    NOTES_ADDED=$((NOTES_ADDED + 1))
}

mkcol work Work
mkcol projects Projects "$work"
mkcol launch Launch "$projects"
mkcol website "Website refresh" "$projects"
mkcol meetings Meetings "$work"
mkcol home Home
mkcol recipes Recipes "$home"
mkcol baking Baking "$recipes"
mkcol garden Garden "$home"
mkcol reading Reading

note "Launch plan" "$launch" <<'EOF'
Goal: ship version 2 of the app to all customers by the end of the quarter.

Milestones
- Feature freeze: 3 weeks before launch
- Beta to 200 customers: 2 weeks before
- Press and blog post ready: 1 week before
- Launch day: Tuesday, 9:00 UTC, with support on call

Owners
- Release: Priya
- Marketing site: Tom
- Support playbook: Ana
EOF

note "Risks and open questions" "$launch" <<'EOF'
1. Data migration on large accounts: test with the 5 largest customers' copies.
2. Do we keep the old export format for a release? Ask support which customers use it.
3. Pricing page: legal has not reviewed the new wording yet.
4. On-call rota over the launch weekend is not complete.
EOF

note "Press release draft" "$launch" <<'EOF'
FOR IMMEDIATE RELEASE

Version 2 brings offline mode, a faster search and shared collections.

"Our customers asked for an app that works on a train and in a basement," said the product
lead. "Version 2 does."

Availability: today, free for all existing customers.
EOF

note "Content inventory" "$website" <<'EOF'
Page            | Keep? | Owner | Notes
Home            | yes   | Tom   | new hero image
Pricing         | yes   | Ana   | waits for legal
About           | yes   | Tom   | update team photos
Careers         | merge | Priya | fold into About
Old changelog   | no    | -     | redirect to /releases
EOF

note "Team sync, 4 March" "$meetings" <<'EOF'
Present: Priya, Tom, Ana, Jonas

- Beta sign-ups at 160 of 200; Ana to email the waiting list again.
- Search speed-up merged; numbers look good on the large test account.
- Decision: launch on a Tuesday, not a Monday.

Actions
- Tom: final screenshots by Friday
- Jonas: load test of the sync server
EOF

note "Team sync, 11 March" "$meetings" <<'EOF'
Present: Priya, Tom, Jonas (Ana out)

- Beta full. First feedback: people love offline mode, find the share dialog confusing.
- Load test: fine up to 3x the expected traffic.

Actions
- Priya: simplify the share dialog, two options instead of five
- Tom: write the launch email
EOF

note "1:1 with Priya" "$meetings" <<'EOF'
- She wants to lead the next release too; agreed, with Jonas as her second.
- Conference talk in May: yes, book travel early.
- Feedback for me: decisions in meetings should be written down the same day.
EOF

note "Quarterly planning" "$work" <<'EOF'
Themes for next quarter
1. Reliability: no sync incident that loses data, ever.
2. Onboarding: a new user has their first collection in under a minute.
3. Performance: search under 50 ms on 100,000 notes.

Not this quarter: themes, a web version.
EOF

note "Weeknight dal" "$recipes" <<'EOF'
Serves 4, 40 minutes.

Ingredients
- 250 g red lentils, rinsed
- 1 onion, 3 cloves garlic, a thumb of ginger
- 1 tin chopped tomatoes
- 1 tsp each: cumin seeds, turmeric, garam masala
- 1 tin coconut milk, juice of a lime, coriander

Method
1. Fry the cumin seeds in oil until they pop, then the onion until soft.
2. Add garlic, ginger and the other spices for a minute.
3. Add lentils, tomatoes and 750 ml water; simmer 25 minutes, stirring now and then.
4. Stir in the coconut milk, season, finish with lime and coriander.
EOF

note "Tomato soup" "$recipes" <<'EOF'
Roast 1 kg tomatoes, 2 red onions and a head of garlic at 200 °C for 40 minutes.
Blend with 500 ml stock and a handful of basil. Season; a spoon of sugar if the
tomatoes are sharp. Serve with grilled cheese.
EOF

note "Shopping list" "$home" <<'EOF'
- red lentils
- coconut milk (2 tins)
- limes
- strong white flour
- eggs
- compost bags
- batteries (AA)
EOF

note "Sourdough loaf" "$baking" <<'EOF'
Starter fed the night before; it should double in 6 to 8 hours.

- 500 g strong white flour
- 350 g water
- 100 g active starter
- 10 g salt

Mix flour and water, rest 1 hour. Add starter and salt. Four sets of stretch and folds,
30 minutes apart. Bulk ferment until 50% bigger, shape, then proof overnight in the fridge.
Bake in a lidded pot at 250 °C: 20 minutes lid on, 20 to 25 minutes lid off.
EOF

note "Lemon olive oil cake" "$baking" <<'EOF'
- 3 eggs, 200 g sugar, zest of 2 lemons: whisk until pale
- 150 ml olive oil, 120 ml milk, juice of 1 lemon: whisk in
- 200 g flour, 2 tsp baking powder, a pinch of salt: fold in
Bake 45 minutes at 175 °C in a 23 cm tin. Glaze with icing sugar and lemon juice.
EOF

note "Planting calendar" "$garden" <<'EOF'
March: sow tomatoes and chillies indoors; broad beans outside.
April: first potatoes; sow lettuce every two weeks until August.
May: plant out tomatoes after the last frost (around the 15th here).
June: courgettes and beans out; net the strawberries.
September: plant garlic; sow green manure on the empty beds.
EOF

note "Tomato varieties" "$garden" <<'EOF'
Grown last year, and verdict:
- Sungold: sweetest, split in the rain. Again.
- Black Krim: big, good for the soup, slow. Again.
- Gardener's Delight: reliable, a bit dull. Maybe.
- San Marzano: blossom end rot. Not again without better watering.
EOF

note "Compost" "$garden" <<'EOF'
Greens: kitchen scraps, grass cuttings, coffee grounds.
Browns: cardboard, dry leaves, straw. Roughly two browns for every green.
Turn it every few weeks; it is ready when it smells of earth and the scraps are gone.
EOF

note "Packing list: hiking weekend" "$home" <<'EOF'
Wear
- boots, wool socks (2 pairs spare), rain jacket, fleece, hat

Carry
- map and compass, phone with offline maps, power bank
- water filter, 2 l bottles, stove, gas, lighter
- sleeping bag, mat, tent (check the poles)
- first-aid kit, sun cream, head torch, spare batteries

Food
- porridge oats, dried fruit, two dinners, chocolate, coffee
EOF

note "Car" "$home" <<'EOF'
Service due in June (or at 60,000 km).
Tyre pressure: 2.3 bar front, 2.1 bar rear.
Insurance renews on 1 September; compare quotes in August.
EOF

note "Reading list" "$reading" <<'EOF'
To read
- The Design of Everyday Things, Don Norman
- Designing Data-Intensive Applications, Martin Kleppmann
- A Philosophy of Software Design, John Ousterhout
- The Overstory, Richard Powers

Reading
- Piranesi, Susanna Clarke

Read this year
- The Pragmatic Programmer, Hunt and Thomas
- Project Hail Mary, Andy Weir
EOF

note "Notes on Designing Data-Intensive Applications" "$reading" <<'EOF'
Chapter 5, Replication
- Leader-based, multi-leader and leaderless replication; each trades consistency for
  availability in a different way.
- Read-your-writes and monotonic reads are what users notice first.
- Concurrent writes: last write wins loses data; version vectors tell concurrent from ordered.

Chapter 9
- Lamport timestamps give a total order consistent with causality, but cannot tell if two
  events were concurrent.
EOF

note "Quotes" "$reading" <<'EOF'
"The beauty of the universe consists not only of unity in variety, but also of variety in
unity." (Umberto Eco)

"Simple things should be simple, complex things should be possible." (Alan Kay)
EOF

note "Ideas" <<'EOF'
- A weekly review: every Friday, empty the inbox into collections.
- Learn to sharpen kitchen knives properly.
- Plant a hedge for the birds along the back fence.
EOF

note "Gift ideas" <<'EOF'
Mum: a good secateurs, or the new Ottolenghi book.
Jonas: climbing chalk bag; he mentioned his is torn.
Ana: tickets for the jazz festival in July.
EOF

note "Old shopping list" "$home" <<'EOF'
- milk
- bread
- birthday candles
EOF
notes rm "$NOTE_ID"

echo "filled the store '$STORE' with $COLLECTIONS collections and $NOTES_ADDED notes, 1 of them in the trash"
