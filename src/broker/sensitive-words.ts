/**
 * The words that mark what only a person may give: secrets (passwords in many languages,
 * one-time codes, keys and tokens, session cookies, card, bank and identity numbers, seed
 * phrases), consent, and the yes/no answers a consent is given with. Matched on words as
 * `normalise.ts` reads them, so separators, case, accents and look-alike letters do not hide
 * a word. Pure.
 */
import { withoutWarnings } from "./negation.js";
import { runsOf, type Words, wordsOf } from "./normalise.js";

export type Category = "password" | "code" | "credential" | "session" | "card" | "bank" | "identity" | "seed";

/** How each category reads in a reason: "the field "x" looks like <this>". */
export const CATEGORY_NAMES: Record<Category, string> = {
  password: "a password",
  code: "a one-time, verification or PIN code",
  credential: "a credential (a key, token or secret)",
  session: "a session cookie, session id or authorization header",
  card: "a payment card number or security code",
  bank: "a bank account number",
  identity: "a national identity number",
  seed: "a wallet seed or recovery phrase",
};

/**
 * How a term matches. `stem`: anywhere inside words written together (`myApiKey` has
 * "apikey"). `word`: exactly some consecutive words written together (`otp`, `o_t_p`, `otpCode`
 * have "otp"; `hotpot` has not). `whole`: the entire name, nothing else (`code`, `key`).
 */
type Kind = "stem" | "word" | "whole";

interface Term {
  native: string;
  latin: string;
  kind: Kind;
  category: Category;
  /** Also in sentences (messages, descriptions); some words are too common there. */
  inProse: boolean;
  /** Harmless words that contain the stem (`secretary`). */
  unless: string[];
}

/** Longest run of words a term in a sentence may span ("code we sent"); in a name, a little more. */
const PROSE_RUN = 4;
const LABEL_RUN = 6;

function terms(category: Category, kind: Kind, inProse: boolean, texts: string[], unless: string[] = []): Term[] {
  return texts.map((text) => {
    const words = wordsOf(text);
    return { native: words.native.join(""), latin: words.latin.join(""), kind, category, inProse, unless };
  });
}

const TERMS: Term[] = [
  // Passwords, in the common languages (written as people write them; normalised like any input).
  ...terms("password", "stem", true, [
    "password",
    "passwd",
    "passphrase",
    "passcode",
    "passkey",
    "passwort",
    "kennwort",
    "contraseña",
    "mot de passe",
    "senha",
    "palavra-passe",
    "parola d'ordine",
    "wachtwoord",
    "hasło",
    "lösenord",
    "adgangskode",
    "passord",
    "salasana",
    "jelszó",
    "heslo",
    "şifre",
    "пароль",
    "密码",
    "密碼",
    "口令",
    "パスワード",
    "暗証番号",
    "비밀번호",
    "패스워드",
    "암호",
    "κωδικός πρόσβασης",
    "συνθηματικό",
    "كلمة المرور",
    "كلمة السر",
    "סיסמה",
    "पासवर्ड",
    "รหัสผ่าน",
    "mật khẩu",
    "kata sandi",
    "kata laluan",
  ]),
  ...terms("password", "word", true, ["pwd", "mdp"]),
  ...terms("password", "word", false, ["pass", "pw", "parola", "clave"]),
  // One-time, verification and PIN codes; 2FA and MFA.
  ...terms("code", "stem", true, [
    "one time password",
    "one-time code",
    "one time pin",
    "onetime",
    "totp",
    "verification code",
    "verify code",
    "security code",
    "auth code",
    "authentication code",
    "authenticator",
    "mfa code",
    "two factor",
    "two-step",
    "multi factor",
    "second factor",
    "pin code",
    "sms code",
    "login code",
    "access code",
    "backup code",
    "recovery code",
    "bestätigungscode",
    "verifizierungscode",
    "código de verificación",
    "code de vérification",
    "kod weryfikacyjny",
    "geheimzahl",
    "验证码",
    "驗證碼",
    "認証コード",
    "確認コード",
    "인증번호",
    "인증 코드",
    "код подтверждения",
    "одноразов",
    "пин-код",
  ]),
  ...terms("code", "word", true, [
    "otp",
    "hotp",
    "pin",
    "mfa",
    "2fa",
    "tfa",
    "digit code",
    "code we sent",
    "code sent",
    "authenticator app",
    "code we texted",
    "code we emailed",
    "code from the sms",
    "code from your sms",
    "code in the sms",
    "code from the text",
    "code from the email",
    "code in your email",
    "code from your phone",
    "code from the app",
  ]),
  ...terms("code", "word", false, ["tan"]),
  ...terms("code", "whole", false, ["code"]),
  // Keys, tokens and secrets.
  ...terms("credential", "stem", true, ["secret"], ["secretar"]),
  ...terms("credential", "stem", true, [
    "credential",
    "api key",
    "api token",
    "access key",
    "access token",
    "private key",
    "priv key",
    "ssh key",
    "gpg key",
    "pgp key",
    "signing key",
    "encryption key",
    "decryption key",
    "master key",
    "license key",
    "licence key",
    "product key",
    "activation key",
    "auth key",
    "auth token",
    "refresh token",
    "id token",
    "bearer",
    "jwt",
    "clé privée",
    "clé api",
    "clave privada",
    "chave privada",
    "privater schlüssel",
    "秘密鍵",
    "私钥",
    "密钥",
    "秘钥",
    "개인 키",
    "비밀 키",
    "закрытый ключ",
    "секретный ключ",
    "токен",
    "トークン",
  ]),
  ...terms("credential", "word", true, ["token"]),
  ...terms("credential", "word", false, ["pat"]),
  ...terms("credential", "whole", false, ["key", "auth"]),
  // Sessions and the headers that carry credentials.
  ...terms("session", "stem", true, ["cookie", "session id", "sessid", "session token", "session key", "authorization", "auth header", "csrf", "xsrf"]),
  // Payment cards.
  ...terms("card", "stem", true, [
    "credit card",
    "debit card",
    "card number",
    "cc number",
    "ccnum",
    "cvv",
    "cvc",
    "card verification",
    "kreditkarte",
    "tarjeta de crédito",
    "número de tarjeta",
    "carte bancaire",
    "numéro de carte",
    "cartão de crédito",
    "信用卡",
    "クレジットカード",
    "신용카드",
    "кредитн",
    "номер карты",
  ]),
  ...terms("card", "word", true, ["card no", "card num"]),
  ...terms("card", "word", false, ["csc"]),
  // Bank accounts.
  ...terms("bank", "stem", true, [
    "iban",
    "account number",
    "acct number",
    "routing number",
    "sort code",
    "bank account",
    "kontonummer",
    "número de cuenta",
    "numéro de compte",
    "número da conta",
  ]),
  ...terms("bank", "word", true, ["account no", "acct no"]),
  // National identity numbers.
  ...terms("identity", "stem", true, [
    "social security",
    "social insurance",
    "national id",
    "national identity",
    "national identification",
    "national insurance",
    "passport number",
    "passport num",
    "identity number",
    "identification number",
    "id card number",
    "taxpayer",
    "tax number",
    "tax identification",
    "driver license number",
    "drivers license",
    "driving licence",
    "personnummer",
    "personalausweis",
    "steuer id",
    "sécurité sociale",
    "seguridad social",
    "codice fiscale",
    "身份证",
    "マイナンバー",
    "주민등록번호",
    "паспорт",
    "снилс",
  ]),
  ...terms("identity", "word", true, ["ssn", "tax id", "id number", "id no", "passport no", "aadhaar", "cpf"]),
  ...terms("identity", "word", false, ["tin", "nin", "bsn", "dni", "nif", "nie"]),
  // Wallet seeds and recovery phrases.
  ...terms("seed", "stem", true, [
    "seed phrase",
    "recovery phrase",
    "mnemonic",
    "backup phrase",
    "seed words",
    "recovery words",
    "wallet seed",
    "recovery key",
    "bip39",
    "助记词",
  ]),
];

/**
 * Words that ask for consent. Latin ones match the start of a word (`approved`, `confirmDelete`);
 * phrases match consecutive words; the others match inside the text.
 */
export const CONSENT_PREFIXES = [
  "allow",
  "authori",
  "accept",
  "agree",
  "approv",
  "confirm",
  "consent",
  "proceed",
  "continu",
  "permi",
  "grant",
  "acknowledg",
  "optin",
  "zustimm",
  "einverstanden",
  "erlaub",
  "bestatig",
  "akzeptier",
  "genehmig",
  "fortfahr",
  "acept",
  "autoriz",
  "autoris",
  "concord",
  "aceit",
  "consenti",
  "подтвер",
  "разреш",
  "соглас",
  "продолж",
  "дозвол",
].map((text) => wordsOf(text).latin.join(""));
const CONSENT_WORDS = [
  "ok",
  "okay",
  "yes",
  "sure",
  "go ahead",
  "are you sure",
  "do you want",
  "would you like",
  "shall i",
  "should i",
  "may i",
  "can i",
  "opt in",
  "de acuerdo",
  "d'accord",
].map((text) => wordsOf(text).latin.join(""));
export const CONSENT_STEMS = ["同意", "允许", "允許", "确认", "確認", "許可", "承認", "続行", "동의", "허용", "확인", "계속"].map((text) =>
  wordsOf(text).native.join(""),
);

/** The first words of an answer that is a yes or a no (`Yes, delete it`, `Don't allow`). */
const YES_NO = new Set(
  [
    "yes",
    "no",
    "y",
    "n",
    "true",
    "false",
    "ok",
    "okay",
    "cancel",
    "allow",
    "deny",
    "accept",
    "reject",
    "decline",
    "agree",
    "disagree",
    "approve",
    "confirm",
    "continue",
    "stop",
    "proceed",
    "abort",
    "on",
    "off",
    "grant",
    "refuse",
    "permit",
    "sure",
    "yep",
    "yeah",
    "nope",
    "never",
    "always",
    "not",
    "don",
    "do",
    "1",
    "0",
    "si",
    "oui",
    "non",
    "ja",
    "nein",
    "sim",
    "nao",
    "да",
    "нет",
    "是",
    "否",
    "はい",
    "いいえ",
    "예",
    "네",
    "아니요",
    "tak",
    "nie",
    "evet",
    "hayir",
  ].map((text) => wordsOf(text).latin.join("")),
);

/** A server asks the same words again and again: verdicts on short texts are kept, a bounded number. */
const verdicts = new Map<string, Category | null>();
const MAX_VERDICTS = 4096;
const MAX_KEPT_TEXT = 1024;

/** The category of secret `text` names, if any. A label is a name, title or format; prose a message or description. */
export function secretIn(text: string, as: "label" | "prose"): Category | undefined {
  if (text.length > MAX_KEPT_TEXT) return findSecret(text, as);
  const key = `${as}:${text}`;
  const known = verdicts.get(key);
  if (known !== undefined) return known ?? undefined;
  const found = findSecret(text, as);
  if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
  verdicts.set(key, found ?? null);
  return found;
}

function findSecret(text: string, as: "label" | "prose"): Category | undefined {
  const words = wordsOf(text);
  const found = secretInWords(words, as);
  if (found === undefined || as === "label") return found;
  // A sentence that only warns about a secret ("never enter your password here") does not ask for it.
  const asked = withoutWarnings(text, (clause) => secretInWords(clause, "prose"));
  return asked === undefined ? found : secretInWords(asked, "prose");
}

function secretInWords(words: Words, as: "label" | "prose"): Category | undefined {
  const variants: Array<[string[], "native" | "latin"]> = [
    [words.native, "native"],
    [words.latin, "latin"],
    ...(as === "label" ? [[words.leet, "latin"] as [string[], "latin"]] : []),
  ];
  for (const [list, script] of variants) {
    const text: Text = { label: as === "label", words: list, runs: runsOf(list, as === "label" ? LABEL_RUN : PROSE_RUN), whole: list.join("") };
    for (const term of TERMS) {
      if (as === "prose" && !term.inProse) continue;
      const target = term[script];
      if (target !== "" && matches(term, target, text)) return term.category;
    }
  }
  return undefined;
}

interface Text {
  label: boolean;
  words: string[];
  /** Runs of consecutive words written together (see `runsOf`). */
  runs: string[];
  whole: string;
}

/**
 * In a label (a short name) a stem may be anywhere in the name written together. In prose a
 * stem is inside one word, or starts where a run of words starts ("api keys"; not "the slot",
 * which would hide "heslo").
 */
function matches(term: Term, target: string, text: Text): boolean {
  switch (term.kind) {
    case "whole":
      return text.label && text.whole === target;
    case "word":
      return text.runs.includes(target);
    case "stem":
      if (text.label) return stripped(text.whole, term.unless).includes(target);
      return text.words.some((word) => stripped(word, term.unless).includes(target)) || text.runs.some((run) => stripped(run, term.unless).startsWith(target));
  }
}

function stripped(run: string, unless: string[]): string {
  return unless.reduce((text, harmless) => text.split(harmless).join(" "), run);
}

/** The consent wording in `text` ("approve", "go ahead"), if any. */
export function consentIn(text: string): string | undefined {
  const words = wordsOf(text);
  const prefixed = words.latin.find((word) => CONSENT_PREFIXES.some((prefix) => word.startsWith(prefix)));
  if (prefixed !== undefined) return prefixed;
  const runs = runsOf(words.latin, PROSE_RUN);
  const phrase = CONSENT_WORDS.find((wording) => runs.includes(wording));
  if (phrase !== undefined) return phrase;
  const joined = words.native.join("");
  return CONSENT_STEMS.find((stem) => joined.includes(stem));
}

/** Whether an answer reads as a yes or a no: its first word is one, or it gives consent ("I accept"). */
export function isYesNo(text: string): boolean {
  const words = wordsOf(text);
  const first = words.latin[0];
  return first !== undefined && (YES_NO.has(first) || YES_NO.has(words.latin.join("")) || consentIn(text) !== undefined);
}
