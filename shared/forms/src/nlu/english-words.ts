/**
 * Common English function words and conversational fillers. Two uses: a short
 * Latin-script reply made mostly of these is plausibly English ("hi", "ok
 * let's go"), and they carry no topic, so keyword matching ignores them.
 */
export const ENGLISH_COMMON_WORDS: ReadonlySet<string> = new Set(
  `a about above after again all also am an and any anything are as at be because been before being below between both but by
  can could did do does doing don't down during each few for from further had has have having he her here hers him his how
  i i'd i'll i'm i've if in into is it it's its just let let's lets me more most my myself no nor not now of off on once only
  or other our ours out over own same she should so some such than that that's the their theirs them then there these they
  this those through to too under until up very was we were what when where which while who whom why will with would you
  your yours yourself hi hello hey yes yeah yep yup ok okay sure thanks thank please good morning afternoon evening fine great
  well right cool alright go start ready first last next speak want like prefer im dont cant can't won't really maybe also just still`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Words that say nothing about a fact's topic even though they are long
 * ("describe", "respondent"): form designers use them in every fact, so they
 * would make every answer "cover" every fact.
 */
export const ENGLISH_GENERIC_WORDS: ReadonlySet<string> = new Set(
  `respondent respondents applicant candidate user person answer answers question questions describe description explain
  explanation provide provided include includes including mention mentions mentioned specific specifically detail details
  detailed least example examples information info please tell share state stated give given whether least should must
  need needs required optional clear clearly concrete concretely brief briefly short long enough something anything other
  there their about what which when where with from that this have has been were will would could also only more most some
  such than then them they your yours into over under very just like know knows known`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Quantities, degrees and hedges: a closed class of English words that say
 * how much or how sure, never what. "A little", "some stuff", "quite a lot"
 * are made only of these.
 */
export const ENGLISH_VAGUE_WORDS: ReadonlySet<string> = new Set(
  `little bit bits lot lots few several much many bunch somewhat kind sort stuff thing things something someone somewhere sometimes
  occasionally often rarely seldom maybe probably perhaps possibly quite pretty fairly rather mostly mainly basically generally usually
  various different certain etc same done doing did do does been had having got gotten plenty enough loads tons once twice before
  previously past ago already ever never yet definitely absolutely sure certainly guess suppose think kinda sorta whatever everything
  nothing none stuff things lil tad yes no nope yeah yep ok okay fine good nice great couple times time bits sorry
  apologies hmm umm idk dunno unsure`
    .split(/\s+/)
    .filter(Boolean),
);
