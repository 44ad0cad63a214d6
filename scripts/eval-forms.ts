import { main } from './eval-forms/main.js';

/**
 * `npm run eval:forms`: simulated respondents through the running form
 * interview (HTTP + SSE), scored and tabulated. See scripts/eval-forms/main.ts
 * for the options and eval/forms/FORMAT.md for the data.
 */
main(process.argv.slice(2)).then(
  // Exit explicitly: a lingering keep-alive socket must not hold the process open.
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
