import { marker, type ScrubRule } from './rule';

/**
 * Access tokens of the services a web or server app talks to, recognized
 * by their published prefixes (what secret scanners match on): GitHub
 * (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`), GitLab (`glpat-`
 * and its other token kinds), Slack (`xoxb-`, `xoxp-`, … and the secret
 * path of an incoming webhook URL), Stripe secret and restricted keys
 * (`sk_live_`, `rk_test_`, …; its publishable `pk_` keys are public), npm
 * (`npm_`), Google API keys (`AIza`) and OpenAI-style `sk-` keys. A token
 * starts at the start of its run (never inside a longer word) and is taken
 * whole.
 */
const TOKEN =
  /(?<![A-Za-z0-9_-])(?:gh[pousr]_[A-Za-z0-9]{30,251}|github_pat_[A-Za-z0-9_]{22,255}|gl(?:pat|dt|rt|ptt|ft|cbt|imt|oas|soat|ffct)-[A-Za-z0-9_-]{20,}|xox[abposre]-[A-Za-z0-9-]{10,}|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|npm_[A-Za-z0-9]{36}|AIza[A-Za-z0-9_-]{35}|sk-(?:proj-|ant-)?[A-Za-z0-9_-]{32,})(?![A-Za-z0-9_-])/g;

/** An incoming webhook of Slack: its path is the secret. */
const SLACK_WEBHOOK = /(?<=hooks\.slack\.com\/(?:services|workflows)\/)[A-Za-z0-9_/-]{16,}/g;

/** A text without any of these holds no token: most messages and stacks pass in one test. */
const ANY_PREFIX = /gh[pousr]_|github_pat_|gl[a-z]{1,4}-|xox[a-z]-|[sr]k_(?:live|test)_|npm_|AIza|sk-|hooks\.slack\.com/;

export const tokenRule: ScrubRule = {
  name: 'token',
  apply: (text, replaced) => {
    if (!ANY_PREFIX.test(text)) return text;
    const take = () => {
      replaced();
      return marker('token');
    };
    return text.replace(TOKEN, take).replace(SLACK_WEBHOOK, take);
  },
};
