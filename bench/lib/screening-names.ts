// Name pools for the screening benchmark's generated list: who is on sanctions and PEP lists, and how
// their names are written. Each pool is ordered from most to least common and drawn with Zipf weights
// (bench/lib/random.ts), so that, as on real lists, many people are called Mohammed, Ali, Kim, Nguyen,
// Wang or Kumar and most names are rare. The spellings vary the way lists vary them: transliteration
// rules and same-name spellings per culture, and an original-script form where one is cheap to make.
import { zipf, type Random } from './random.ts';

export type NameRole = 'given' | 'middle' | 'family';

/** One word of a person's name: the Latin spelling as published, and its original script when known. */
export interface NameWord {
  text: string;
  role: NameRole;
  script?: string;
}

export interface PersonName {
  culture: CultureId;
  words: NameWord[];
  female: boolean;
  /** Written family name first (Chinese, Korean, Vietnamese). */
  familyFirst: boolean;
}

export type CultureId = 'slavic' | 'arabic' | 'persian' | 'chinese' | 'korean' | 'vietnamese' | 'burmese' | 'spanish' | 'anglo' | 'turkish' | 'african' | 'indian';

export interface Culture {
  id: CultureId;
  /** ISO 3166-1 alpha-2 codes, most common first. */
  countries: string[];
  person(random: Random): PersonName;
  /** Spelling rules applied to a lower-case word: [pattern, replacement]. */
  rules: Array<[RegExp, string]>;
  /** Words that are one name spelt differently (lower case). */
  synonyms: string[][];
  /** Renders a word in the culture's original script, when there is one. */
  toScript?(word: NameWord): string | undefined;
  /** Whether the original-script form is written without spaces (Chinese, Korean). */
  scriptJoined?: boolean;
}

const words = (text: string) => text.trim().split(/\s+/);
/** The word without its accents (José → Jose, Nguyễn → Nguyen), as many lists publish it. */
const stripMarks = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').replace(/Đ/g, 'D').replace(/đ/g, 'd');
/** `a:b c:d` pairs (Latin:script). */
const pairs = (text: string) => words(text).map((p) => p.split(':') as [string, string]);

const capitalise = (w: string) => w.replace(/(^|[-'\s])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());

function word(text: string, role: NameRole, script?: string): NameWord {
  return script === undefined ? { text, role } : { text, role, script };
}

/**
 * A family-name pool with a long tail: real lists hold thousands of rare family names for the few
 * common ones a pool can list, so a share of draws is made up from a culture's roots and endings
 * (Zheleznov, al-Rashawi, Mehrzadeh). Without it the same few names recur far more than on a real list.
 */
function longTail(pool: (random: Random) => string, share: number, roots: string, endings: string, endingCount = 1): (random: Random) => string {
  const rootList = words(roots);
  const endingList = words(endings);
  return (random) => {
    if (!random.chance(share)) return pool(random);
    let out = random.pick(rootList);
    for (let i = 0; i < endingCount; i++) out += random.pick(endingList);
    return capitalise(out.toLowerCase());
  };
}

/** A word published without its accents, the accented form kept as its original script. */
function accented(text: string, role: NameRole): NameWord {
  const plain = stripMarks(text);
  return word(plain, role, plain === text ? undefined : text);
}

// ---- Russian and Ukrainian ----------------------------------------------------------------------

const slavicMale = zipf(
  words(`Aleksandr Sergei Dmitry Andrei Alexei Vladimir Igor Yuri Nikolai Mikhail Ivan Oleg Viktor Boris Pavel Yevgeny
  Oleksandr Volodymyr Konstantin Gennady Anatoly Valery Roman Maxim Denis Artem Kirill Vitaly Ruslan Mykola Serhiy
  Andriy Dmytro Arkady Leonid Grigory Vadim Stanislav Timur Yaroslav Bogdan Taras Petro Vasily Fyodor Stepan Ilya
  Anton Yegor Semyon Valentin Eduard Rinat Ramzan Suleiman Arkadiy Oleh Ihor Mykhailo Vasyl Hennadiy Yevhen`),
);
const slavicFemale = zipf(
  words(`Elena Olga Tatiana Natalia Irina Svetlana Anna Maria Yulia Ekaterina Lyudmila Galina Oksana Larisa Marina
  Viktoria Anastasia Valentina Nadezhda Vera Lyubov Alina Kristina Daria Polina Olena Tetiana Iryna Nataliya Ksenia`),
);
const slavicPatronymicStems = zipf(
  words(`Aleksandr Sergeyev Vladimir Ivan Nikolayev Viktor Anatolyev Mikhail Yuryev Petr Boris Igorev Oleg Dmitriyev
  Andreyev Gennadyev Valeryev Pavl Leonid Grigoryev Vasilyev Fyodor Konstantin Yevgenyev Arkadyev Stepan Semyon Roman`),
);
const slavicFamilyPool = zipf(
  words(`Ivanov Smirnov Kuznetsov Popov Vasiliev Petrov Sokolov Mikhailov Novikov Fedorov Morozov Volkov Alekseev
  Lebedev Semenov Egorov Pavlov Kozlov Stepanov Nikolaev Orlov Andreev Makarov Nikitin Zakharov Zaitsev Soloviev
  Borisov Yakovlev Grigoriev Romanov Vorobiev Sergeev Kuzmin Frolov Alexandrov Dmitriev Korolev Gusev Kiselev Ilyin
  Maximov Polyakov Sorokin Vinogradov Kovalev Belov Medvedev Antonov Tarasov Zhukov Baranov Filippov Komarov Davydov
  Belyaev Gerasimov Bogdanov Osipov Sidorov Matveev Titov Markov Mironov Krylov Kulikov Karpov Vlasov Melnikov Denisov
  Gavrilov Tikhonov Kazakov Afanasiev Danilov Timofeev Fomin Chernov Abramov Martynov Efimov Shcherbakov Nazarov Kalinin
  Isaev Chernyshev Bykov Maslov Rodionov Konovalov Lazarev Voronin Klimov Filatov Ponomarev Golubev Kudryavtsev Prokhorov
  Naumov Potapov Zhuravlev Ovchinnikov Trofimov Leonov Sobolev Ermakov Kolesnikov Goncharov Emelyanov Nikiforov Grachev
  Kotov Grishin Efremov Arkhipov Gromov Kirillov Malyshev Panov Moiseev Rumyantsev Akimov Kondratiev Biryukov Gorbunov
  Shevchenko Kovalenko Bondarenko Tkachenko Kravchenko Oliynyk Shevchuk Koval Polishchuk Bondar Tkachuk Moroz Marchenko
  Lysenko Rudenko Savchenko Petrenko Klymenko Pavlenko Kravchuk Kuzmenko Ponomarenko Vasylenko Levchenko Kharchenko
  Karpenko Melnyk Boyko Kovalchuk Tymoshenko Yanukovych Medvedchuk Firtash Kolomoisky Deripaska Abramovich Usmanov
  Vekselberg Rotenberg Timchenko Kovalchuk Sechin Shoigu Lavrov Peskov Patrushev Naryshkin Kadyrov Prigozhin Gurevich
  Rabinovich Kogan Vinokurov Tsvetkov Khodorkovsky Berezovsky Potanin Fridman Aven Khan Mordashov Lisin Kerimov`),
);
/** Russian ↔ Ukrainian forms and common Latin spellings of the same first name. */
const slavicSynonyms = [
  'aleksandr alexander alexandr oleksandr',
  'sergei sergey serguei serhiy',
  'dmitry dmitri dmitriy dmytro',
  'andrei andrey andriy',
  'alexei aleksei alexey aleksey',
  'vladimir volodymyr wladimir',
  'nikolai nikolay mykola',
  'yuri yury iouri yuriy',
  'mikhail mykhailo michail',
  'igor ihor',
  'oleg oleh',
  'yevgeny evgeny evgeniy yevhen',
  'gennady gennadiy hennadiy',
  'vasily vasiliy vasyl',
  'fyodor fedor',
  'elena yelena olena',
  'tatiana tatyana tetiana',
  'natalia natalya nataliya',
  'irina iryna',
  'yulia yuliya julia',
  'pyotr petr petro',
].map(words);

const cyrillic: Array<[string, string]> = [
  ['shch', 'щ'], ['kh', 'х'], ['zh', 'ж'], ['ts', 'ц'], ['ch', 'ч'], ['sh', 'ш'], ['yu', 'ю'], ['ya', 'я'], ['yo', 'ё'],
  ['ye', 'е'], ['iy', 'ий'], ['y', 'ы'], ['a', 'а'], ['b', 'б'], ['v', 'в'], ['g', 'г'], ['h', 'г'], ['d', 'д'], ['e', 'е'],
  ['z', 'з'], ['i', 'и'], ['j', 'й'], ['k', 'к'], ['l', 'л'], ['m', 'м'], ['n', 'н'], ['o', 'о'], ['p', 'п'], ['r', 'р'],
  ['s', 'с'], ['t', 'т'], ['u', 'у'], ['f', 'ф'], ['x', 'кс'], ['w', 'в'], ['c', 'к'], ['q', 'к'],
];

/** Greedy transliteration by a table of Latin sequences, longest first, keeping the capital. */
function transliterate(text: string, table: ReadonlyArray<[string, string]>, dropInnerVowels = false): string {
  const lower = text.toLowerCase();
  let out = '';
  for (let i = 0; i < lower.length; ) {
    const hit = table.find(([latin]) => lower.startsWith(latin, i));
    if (!hit) {
      out += lower[i];
      i++;
      continue;
    }
    const inner = i > 0 && i + hit[0].length < lower.length;
    if (!(dropInnerVowels && inner && /^[aeiou]$/.test(hit[0]))) out += hit[1];
    i += hit[0].length;
  }
  return out.charAt(0).toUpperCase() + out.slice(1);
}

const slavicFamily = longTail(slavicFamilyPool, 0.5, `Belo Cherno Dobro Zhelezn Kras Mal Nesv Star Vysots Golub Kamen Les Pol Gor Rud Sil Tver Zvon Volod Yar Bog Mir Sokol Orl Lis Bor Dub Kolos Ryb Zolot Serebr Ostr Shir Dolg Kor Kos Mel Pesh Prud Ruch Sad Svir Tikh Ugr Khol Shum Yagod Zar Vetr Grom Dyak Pop Kuch Lom Luk Mak Shap Tsar Zhur`, `ov ev in sky tsky enko chuk yuk ets nik kin ikov anov ovsky`);

const slavic: Culture = {
  id: 'slavic',
  countries: ['RU', 'UA', 'BY', 'KZ', 'CY', 'LV', 'MD', 'GE'],
  person(random) {
    const female = random.chance(0.18);
    const stem = slavicPatronymicStems(random);
    const patronymic = stem.endsWith('ev') || stem.endsWith('yev') ? `${stem}${female ? 'na' : 'ich'}` : `${stem}${female ? 'ovna' : 'ovich'}`;
    let family = slavicFamily(random);
    if (female) family = family.replace(/(ov|ev|in)$/, '$1a').replace(/sky$/, 'skaya');
    return {
      culture: 'slavic',
      female,
      familyFirst: false,
      words: [word(female ? slavicFemale(random) : slavicMale(random), 'given'), word(patronymic, 'middle'), word(family, 'family')],
    };
  },
  rules: [[/ks/, 'x'], [/x/, 'ks'], [/y$/, 'i'], [/iy$/, 'y'], [/i$/, 'y'], [/yev/, 'ev'], [/ev$/, 'yev'], [/ov$/, 'off'], [/ev$/, 'eff'], [/kh/, 'h'], [/zh/, 'j'], [/ye/, 'e'], [/e/, 'ye'], [/ts/, 'tz'], [/sky$/, 'ski'], [/yu/, 'iu'], [/ya/, 'ia'], [/ch/, 'tch'], [/sh/, 'ch'], [/v/, 'w']],
  synonyms: slavicSynonyms,
  toScript: (w) => transliterate(w.text, cyrillic),
};

// ---- Arabic -------------------------------------------------------------------------------------

const arabicGiven = zipf(
  words(`Mohammed Muhammad Ahmed Ali Mohamed Abdullah Mohammad Omar Hassan Hussein Khalid Ibrahim Youssef Mahmoud Mustafa
  Abdulrahman Said Tariq Hamza Bilal Faisal Saleh Nasser Jamal Karim Walid Sami Adel Salem Hamad Rashid Majid Fahad Sultan
  Saad Ziad Anwar Osama Ayman Yasser Hisham Abdelaziz Abdulkarim Ismail Yahya Zakaria Mansour Nabil Riad Samir Tamer
  Fatima Aisha Maryam Khadija Zainab Amina Layla Noor Huda Salma Hana Rania`),
  0.9,
);
const arabicFamilyPool = zipf(
  words(`al-Masri al-Qahtani al-Otaibi al-Ghamdi al-Harbi al-Zahrani al-Shehri al-Dosari al-Mutairi al-Tamimi al-Baghdadi
  al-Hashimi al-Jaber Haddad Nasrallah Khoury Hamdan Mansour Saleh Abbas Darwish Awad Qasim al-Rashid al-Sabah al-Thani
  al-Assad Makhlouf al-Kuwaiti al-Yemeni al-Libi al-Iraqi al-Suri al-Zawahiri al-Awlaki al-Amri al-Anazi al-Shammari
  al-Sudairi al-Hakim Shalish Hamsho Foz al-Qatirji Jaber Suleiman al-Khatib Barakat Issa Khalil Nassar Ghosn Fares
  al-Bakr al-Hamad al-Muhairi al-Nuaimi al-Falasi al-Kaabi al-Mansouri al-Marri al-Kubaisi al-Obeidi al-Dulaimi`),
);
/** Latin to Arabic letters: a rough rendering, short vowels dropped inside the word as Arabic writes it. */
const arabicLetters: Array<[string, string]> = [
  ['sh', 'ش'], ['kh', 'خ'], ['th', 'ث'], ['dh', 'ذ'], ['gh', 'غ'], ['ou', 'و'], ['oo', 'و'], ['ee', 'ي'], ['aa', 'ا'],
  ['a', 'ا'], ['b', 'ب'], ['t', 'ت'], ['j', 'ج'], ['h', 'ح'], ['d', 'د'], ['r', 'ر'], ['z', 'ز'], ['s', 'س'], ['f', 'ف'],
  ['q', 'ق'], ['k', 'ك'], ['l', 'ل'], ['m', 'م'], ['n', 'ن'], ['w', 'و'], ['y', 'ي'], ['i', 'ي'], ['u', 'و'], ['o', 'و'],
  ['e', 'ي'], ['g', 'ج'], ['p', 'ب'], ['v', 'ف'], ['c', 'ك'], ['x', 'كس'], ['-', ''],
];
const toArabicScript = (w: NameWord) => transliterate(w.text.replace(/^al-/i, 'al'), arabicLetters, true);

const arabicRules: Array<[RegExp, string]> = [
  [/^al-/, 'el-'], [/^al-/, 'al '], [/^al-/, ''], [/^al-/, 'al'], [/^abdul/, 'abdel'], [/^abdul/, 'abd al-'], [/^abdel/, 'abdul'],
  [/ou/, 'u'], [/u/, 'ou'], [/ee/, 'i'], [/i/, 'ee'], [/q/, 'k'], [/aa/, 'a'], [/a$/, 'ah'], [/ah$/, 'a'], [/e/, 'a'], [/ss/, 's'],
  [/y/, 'i'], [/dh/, 'z'], [/th/, 't'], [/mm/, 'm'],
];
const arabicSynonyms = ['mohammed muhammad mohamed mohammad muhammed mohamad', 'ahmed ahmad', 'youssef yusuf yousef youssif', 'hussein husain hussain hosseyn', 'hassan hasan', 'omar umar', 'osama usama', 'saleh salih', 'said saeed sayed', 'fatima fatma fatimah', 'aisha aysha aicha'].map(words);

const arabicFamily = longTail(arabicFamilyPool, 0.4, `al-Zahr Hadd al-Rash Masr al-Sham Qaht al-Jabr Hash al-Khal Najj al-Sadd Tawf al-Bakr Dawl al-Harr Jaw al-Kath Lahm al-Murr Nas al-Qar Rif al-Sab Tar al-Wah Yas al-Zub Ghan al-Hilal Jund al-Kurd Marz al-Nabh Quds al-Ruba Shar al-Taif Umar al-Walid Zayd`, `i ani awi ari ouri ab an ahi ashi`);

const arabic: Culture = {
  id: 'arabic',
  countries: ['SY', 'IQ', 'YE', 'SA', 'LB', 'LY', 'AE', 'EG', 'SD', 'KW', 'QA', 'JO'],
  person(random) {
    const female = random.chance(0.12);
    const given = word(arabicGiven(random), 'given');
    const father = word(arabicGiven(random), 'middle');
    const out: NameWord[] = [given];
    // "bin" (son of) before the father's name in Gulf usage; Levantine names string the names along.
    if (random.chance(0.35)) out.push(word(female ? 'bint' : 'bin', 'middle'));
    out.push(father);
    if (random.chance(0.25)) out.push(word(arabicGiven(random), 'middle'));
    out.push(word(arabicFamily(random), 'family'));
    return { culture: 'arabic', female, familyFirst: false, words: out };
  },
  rules: arabicRules,
  synonyms: arabicSynonyms,
  toScript: toArabicScript,
};

// ---- Persian ------------------------------------------------------------------------------------

const persianGiven = zipf(
  words(`Mohammad Ali Reza Hossein Mehdi Hassan Amir Mohsen Saeed Majid Hamid Javad Abbas Mahmoud Mostafa Ahmad Morteza
  Hadi Masoud Behrouz Dariush Kourosh Farhad Babak Parviz Esmail Gholam Ebrahim Yahya Qasem Hamed Rasoul Maryam Zahra
  Fatemeh Sara Narges Leila Shirin Parisa Mahnaz Azadeh`),
);
const persianFamilyPool = zipf(
  words(`Mohammadi Hosseini Ahmadi Rezaei Moradi Karimi Jafari Rahimi Hashemi Ghasemi Mousavi Heidari Rostami Sadeghi
  Akbari Ebrahimi Kazemi Soleimani Zarif Khamenei Rouhani Larijani Qalibaf Shamkhani Salehi Najafi Tehrani Esfahani
  Shirazi Tabrizi Vahidi Jalili Velayati Rezaee Nasiri Bagheri Firouzabadi Safavi Jazayeri Fadavi Naqdi Hejazi Dehghan
  Abbaspour Hajizadeh Pakpour Salami Araghchi Mohammadzadeh Alizadeh Hosseinzadeh Karimzadeh Amirabdollahian`),
);
const persianFamily = longTail(persianFamilyPool, 0.45, `Tehr Shir Esfah Kerm Tabr Ardab Yazd Mash Qazv Zanj Hamad Rasht Sabz Mehr Jah Khor Nik Bozorg Akh Farh Golest Ashr Dehq Rahn Beh Sar Tal Vaz Amir Kazem Naser Jafar Karim Mahd Bagh Dar Mir Sal`, `ani i zadeh pour ian nejad far nia`);

const persian: Culture = {
  id: 'persian',
  countries: ['IR', 'IQ', 'AF', 'AE', 'TR'],
  person(random) {
    const female = random.chance(0.12);
    const out = [word(persianGiven(random), 'given')];
    if (random.chance(0.2)) out.push(word(persianGiven(random), 'middle'));
    out.push(word(persianFamily(random), 'family'));
    return { culture: 'persian', female, familyFirst: false, words: out };
  },
  rules: [[/ou/, 'u'], [/u/, 'ou'], [/gh/, 'q'], [/q/, 'gh'], [/ei$/, 'ey'], [/ei$/, 'ee'], [/i$/, 'y'], [/zadeh$/, '-zadeh'], [/ss/, 's'], [/ee/, 'i'], [/e/, 'a'], [/v/, 'w'], [/j/, 'dj']],
  synonyms: ['mohammad mohammed muhammad', 'hossein hussein hosein husayn', 'hosseini husseini hoseini husaini', 'mousavi musavi moussavi', 'ghasemi qasemi kasemi', 'qasem ghasem kasem', 'esmail ismail'].map(words),
  toScript: toArabicScript,
};

// ---- Chinese ------------------------------------------------------------------------------------

const chineseFamily = zipf(
  pairs(`wang:王 li:李 zhang:张 liu:刘 chen:陈 yang:杨 huang:黄 zhao:赵 wu:吴 zhou:周 xu:徐 sun:孙 ma:马 zhu:朱 hu:胡 guo:郭
  he:何 lin:林 gao:高 luo:罗 zheng:郑 liang:梁 xie:谢 song:宋 tang:唐 han:韩 feng:冯 deng:邓 cao:曹 peng:彭 zeng:曾
  xiao:肖 tian:田 dong:董 pan:潘 yuan:袁 cai:蔡 jiang:蒋 yu:余 du:杜 ye:叶 cheng:程 wei:魏 su:苏 lu:吕 ding:丁 ren:任
  shen:沈 yao:姚 jin:金`),
  0.8,
);
const chineseSyllables = zipf(
  pairs(`wei:伟 jun:军 ming:明 hua:华 jian:建 li:丽 hong:红 ping:平 gang:刚 qiang:强 lei:磊 yan:燕 jie:杰 tao:涛 bin:斌
  fang:芳 ying:英 xin:新 yu:宇 hao:浩 yi:毅 chen:晨 long:龙 feng:峰 bo:波 lin:林 hui:辉 jing:静 zhi:志 guo:国 xiao:小
  dong:东 hai:海 jia:佳 wen:文 zhong:忠 cheng:成 peng:鹏 kai:凯 rui:瑞 xiang:翔 yong:勇 chao:超 fei:飞 liang:亮
  bing:兵 shan:山 mei:梅 na:娜 xia:霞 qing:庆 sheng:胜 de:德 an:安 zi:子 yun:云 shu:淑 zhen:振`),
  0.7,
);
const chinese: Culture = {
  id: 'chinese',
  countries: ['CN', 'HK', 'SG', 'TW', 'MO'],
  person(random) {
    const [family, familyScript] = chineseFamily(random);
    const syllables = random.chance(0.75) ? [chineseSyllables(random), chineseSyllables(random)] : [chineseSyllables(random)];
    const given = syllables.map(([latin]) => latin).join('');
    const familyFirst = random.chance(0.7);
    const words = [word(capitalise(family), 'family', familyScript), word(capitalise(given), 'given', syllables.map(([, s]) => s).join(''))];
    return { culture: 'chinese', female: random.chance(0.25), familyFirst, words: familyFirst ? words : words.reverse() };
  },
  // Wade-Giles and Cantonese spellings of the same names.
  rules: [[/^x/, 'hs'], [/^q/, 'ch'], [/^zh/, 'ch'], [/^j/, 'ch'], [/ian/, 'ien'], [/ong$/, 'ung'], [/^z/, 'ts'], [/^c/, 'ts'], [/i$/, 'ee']],
  synonyms: ['zhang chang cheung', 'chen chan', 'wang wong', 'li lee', 'huang wong', 'zhou chow chou', 'liu lau', 'wu ng woo', 'xu hsu tsui', 'yang yeung', 'zhao chiu chao', 'lin lam', 'zheng cheng cheang', 'guo kwok kuo', 'he ho', 'gao ko kao', 'liang leung', 'xie tse hsieh', 'cai choi tsai', 'jiang chiang kong', 'ye yip yeh', 'deng tang teng', 'zeng tsang tseng', 'xiao siu hsiao', 'yuan yuen'].map(words),
  toScript: (w) => w.script,
  scriptJoined: true,
};

// ---- Korean -------------------------------------------------------------------------------------

const koreanFamily = zipf(
  pairs(`Kim:김 Lee:이 Park:박 Choi:최 Jung:정 Kang:강 Cho:조 Yoon:윤 Jang:장 Lim:임 Han:한 Oh:오 Seo:서 Shin:신 Kwon:권
  Hwang:황 Ahn:안 Song:송 Yoo:유 Hong:홍 Jeon:전 Ko:고 Moon:문 Yang:양 Son:손 Bae:배 Baek:백 Heo:허 Nam:남 Ri:리 Ryu:류`),
  1.2,
);
const koreanSyllables = zipf(
  pairs(`min:민 jun:준 seo:서 yeon:연 ji:지 hoon:훈 sung:성 young:영 hyun:현 woo:우 jin:진 soo:수 eun:은 hye:혜 ho:호
  chul:철 kyung:경 dong:동 sang:상 jae:재 tae:태 won:원 hee:희 yong:용 il:일 nam:남 jong:종 un:운 chol:철 myung:명
  kwang:광 hak:학 gil:길 ryong:룡 hyok:혁 song:송 su:수 yo:여 jung:중`),
  0.8,
);
const korean: Culture = {
  id: 'korean',
  countries: ['KP', 'KR', 'CN'],
  person(random) {
    const [family, familyScript] = koreanFamily(random);
    const syllables = [koreanSyllables(random), koreanSyllables(random)];
    // "Jong Un", "Jong-un" or "Jongun": all three are on real lists.
    const style = random.int(3);
    const given = style === 0 ? syllables.map(([l]) => capitalise(l)).join(' ') : style === 1 ? capitalise(syllables.map(([l]) => l).join('-')) : capitalise(syllables.map(([l]) => l).join(''));
    const script = syllables.map(([, s]) => s).join('');
    const words = [word(family, 'family', familyScript), word(given, 'given', script)];
    return { culture: 'korean', female: random.chance(0.2), familyFirst: true, words: random.chance(0.8) ? words : words.reverse() };
  },
  // Revised Romanization against McCune-Reischauer and older habits.
  rules: [[/eo/, 'o'], [/eu/, 'u'], [/ae/, 'ai'], [/^k/, 'g'], [/^g/, 'k'], [/ch/, 'j'], [/j/, 'ch'], [/young/, 'yeong'], [/yeong/, 'young'], [/hyun/, 'hyeon'], [/sung/, 'seong'], [/oo/, 'u'], [/ui$/, 'ee'], [/-/, ' '], [/-/, '']],
  synonyms: ['lee yi rhee ri rhie', 'park pak bak', 'choi choe chey', 'jung jeong chung chong', 'kang gang', 'cho jo joe', 'yoon yun', 'jang chang', 'lim im rim', 'oh o', 'seo suh so', 'shin sin', 'kwon gwon', 'ahn an', 'yoo yu ryu', 'jeon chun jun', 'ko go', 'moon mun', 'baek paek', 'heo hur ho'].map(words),
  toScript: (w) => w.script,
  scriptJoined: true,
};

// ---- Vietnamese ---------------------------------------------------------------------------------

const vietnameseFamily = zipf(words(`Nguyễn Trần Lê Phạm Hoàng Huỳnh Phan Vũ Võ Đặng Bùi Đỗ Hồ Ngô Dương Lý Đinh Trịnh Lâm Mai`), 1.3);
const vietnameseMiddle = zipf(words(`Văn Thị Đức Minh Hữu Quốc Thanh Ngọc Công Xuân`));
const vietnameseGiven = zipf(words(`Anh Minh Hùng Dũng Tuấn Hải Long Nam Phương Linh Hương Lan Mai Thu Hoa Trang Quang Sơn Thắng Cường Hiếu Khánh Vinh Bình Tâm Hà Huy Phúc Thảo`));
const vietnamese: Culture = {
  id: 'vietnamese',
  countries: ['VN', 'KH', 'LA'],
  person(random) {
    const female = random.chance(0.3);
    const build = (text: string, role: NameRole) => word(stripMarks(text), role, text);
    const middle = female && random.chance(0.6) ? 'Thị' : vietnameseMiddle(random);
    return { culture: 'vietnamese', female, familyFirst: true, words: [build(vietnameseFamily(random), 'family'), build(middle, 'middle'), build(vietnameseGiven(random), 'given')] };
  },
  rules: [[/uy/, 'uyi'], [/ng$/, 'n'], [/^ph/, 'f'], [/^nguyen$/, 'nguyên'], [/^tr/, 'ch'], [/^d/, 'z'], [/^v/, 'w'], [/^ng/, 'n']],
  synonyms: ['nguyen nguyen ngyuen', 'tran chan', 'le lee', 'vu vo', 'huynh hoang', 'ho hoe'].map(words),
  toScript: (w) => w.script,
};

// ---- Burmese ------------------------------------------------------------------------------------

const burmeseSyllables = zipf(words(`Aung Kyaw Win Myint Htun Soe Zaw Min Thein Sein Maung Hla Than Shwe Naing Lwin Myo Khin Thida Nay Ye Htet Phyo Wai Thet San Suu Kyi Oo Thant Nyunt Tin Moe Hlaing Tun Swe Nyein Khaing Zin Mar`));
const burmese: Culture = {
  id: 'burmese',
  countries: ['MM', 'TH'],
  person(random) {
    const n = 2 + random.int(3);
    const out: NameWord[] = [];
    while (out.length < n) {
      const s = burmeseSyllables(random);
      if (!out.some((w) => w.text === s)) out.push(word(s, out.length === n - 1 ? 'family' : 'given'));
    }
    return { culture: 'burmese', female: random.chance(0.25), familyFirst: false, words: out };
  },
  rules: [[/^ht/, 't'], [/^t/, 'ht'], [/aw$/, 'au'], [/au/, 'aw'], [/ei/, 'a'], [/yi/, 'i'], [/ng$/, 'n'], [/ai/, 'ay']],
  synonyms: ['htun tun htoon', 'kyaw kyau chaw', 'thein thane', 'myint myin'].map(words),
};

// ---- Spanish ------------------------------------------------------------------------------------

const spanishGivenMale = zipf(words(`José Juan Luis Carlos Jorge Miguel Francisco Pedro Manuel Antonio Jesús Alejandro Fernando Ricardo Rafael Javier Roberto Eduardo Diego Alberto Joaquín Ovidio Ismael Héctor Raúl Sergio Óscar Arturo Iván Nicolás Diosdado Tareck Vladimir`));
const spanishGivenFemale = zipf(words(`María Ana Carmen Rosa Guadalupe Luz Patricia Sandra Claudia Verónica Adriana Gabriela Marta Elena Delcy Cilia`));
const spanishFamilyPool = zipf(
  words(`García Rodríguez Martínez Hernández López González Pérez Sánchez Ramírez Torres Flores Rivera Gómez Díaz Cruz Morales Reyes
  Gutiérrez Ortiz Ramos Castillo Jiménez Vargas Romero Herrera Medina Aguilar Mendoza Guzmán Zambada Quintero Cárdenas Salazar
  Beltrán Leyva Fuentes Loera Niño Mayo Caro Arellano Félix Carrillo Osorio Vázquez Castro Suárez Ruiz Álvarez Moreno Muñoz
  Rojas Navarro Domínguez Gil Serrano Blanco Molina Delgado Ortega Cabello Maduro Padrino Saab Moros Bolaños Escobar Ochoa`),
);
const spanishFamily = longTail(spanishFamilyPool, 0.45, `Alv Bust Carr Dom Esc Fern Gal Ib Lor Mart Nav Olm Pach Quir Rom Sand Tov Ugar Vald Zap Bel Cerv Cif Arr Ech Gar Her Lar Mend Ord Pard Rib Sarr Tam Urr Vill Arg Corr Fig Mont Pin`, `ez es ero ado ino ira ana al on uela eda`);

const spanish: Culture = {
  id: 'spanish',
  countries: ['MX', 'VE', 'CO', 'NI', 'CU', 'PE', 'ES', 'GT', 'HN', 'PA'],
  person(random) {
    const female = random.chance(0.2);
    const given = female ? spanishGivenFemale : spanishGivenMale;
    const out = [accented(given(random), 'given')];
    if (random.chance(0.35)) out.push(accented(given(random), 'middle'));
    out.push(accented(spanishFamily(random), 'family'));
    if (random.chance(0.8)) out.push(accented(spanishFamily(random), 'family'));
    return { culture: 'spanish', female, familyFirst: false, words: out };
  },
  rules: [[/z$/, 's'], [/s$/, 'z'], [/v/, 'b'], [/b/, 'v'], [/ll/, 'y'], [/y/, 'll'], [/j/, 'h'], [/gu/, 'g'], [/c/, 's']],
  synonyms: ['josé jose josef', 'jesús jesus', 'joaquín joaquin', 'nicolás nicolas'].map(words),
  toScript: (w) => w.script,
};

// ---- Anglo --------------------------------------------------------------------------------------

const angloGivenMale = zipf(words(`John James Robert Michael William David Richard Joseph Thomas Charles Christopher Daniel Matthew Anthony Mark Paul Steven Andrew Kenneth George Peter Brian Edward Ronald Timothy Jason Jeffrey Gary Ryan Nicholas Eric Stephen Jonathan Larry Scott Frank Justin Brandon Raymond Gregory Samuel Patrick Alexander Jack Dennis Jerry Tyler Aaron Henry`));
const angloGivenFemale = zipf(words(`Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah Karen Emma Olivia Nancy Lisa Margaret Betty Sandra Ashley Dorothy Kimberly Emily Donna Michelle Carol Amanda Melissa Deborah Stephanie Rebecca Laura`));
const angloFamilyPool = zipf(
  words(`Smith Johnson Williams Brown Jones Miller Davis Wilson Taylor Anderson Thomas Jackson White Harris Martin Thompson Moore
  Clark Lewis Walker Hall Allen Young King Wright Scott Green Baker Adams Nelson Hill Campbell Mitchell Roberts Carter Phillips
  Evans Turner Parker Collins Edwards Stewart Morris Murphy Cook Rogers Morgan Cooper Peterson Reed Bailey Bell Kelly Howard
  Ward Cox Richardson Wood Watson Brooks Bennett Gray Hughes Price Sanders O'Brien McDonald MacLeod Fitzgerald Sullivan
  Robinson Lee Ellis Graham Fraser Hamilton Gordon Marshall Russell Griffiths Lloyd Davies Kennedy Ferguson Wallace`),
);
const angloFamily = longTail(angloFamilyPool, 0.5, `Ash Black Brad Brook Crom Dun Fair Gold Hart Holl Kings Lang Mor Nor Pen Ray Red Shel Stan Thorn Wat West Whit Win Wood Al Ben Car Ed Har Jack Nel Rob Wil Ames Bar Cal Dal Far Hal`, `son ton ford wood field ley ing er well by ham worth more ridge`);

const anglo: Culture = {
  id: 'anglo',
  countries: ['GB', 'US', 'AU', 'CA', 'IE', 'NZ', 'ZA'],
  person(random) {
    const female = random.chance(0.3);
    const given = female ? angloGivenFemale : angloGivenMale;
    const out = [word(given(random), 'given')];
    if (random.chance(0.25)) out.push(word(random.chance(0.5) ? `${given(random)[0]!}.` : given(random), 'middle'));
    out.push(word(angloFamily(random), 'family'));
    return { culture: 'anglo', female, familyFirst: false, words: out };
  },
  rules: [[/ph/, 'f'], [/mps/, 'ms'], [/^mc/, 'mac'], [/^mac/, 'mc'], [/ll/, 'l'], [/y$/, 'ie'], [/ie$/, 'y'], [/'/, ''], [/th/, 't']],
  synonyms: ['steven stephen', 'jon john', 'thompson thomson', 'philip phillip', 'geoffrey jeffrey', 'catherine katherine kathryn', 'sara sarah', 'davies davis'].map(words),
};

// ---- Turkish ------------------------------------------------------------------------------------

const turkishGiven = zipf(words(`Mehmet Mustafa Ahmet Ali Hüseyin Hasan İbrahim İsmail Osman Yusuf Murat Ömer Ramazan Halil Süleyman Abdullah Mahmut Recep Kemal Emre Burak Serkan Fatma Ayşe Emine Hatice Zeynep Elif Meryem Şerife`));
const turkishFamilyPool = zipf(words(`Yılmaz Kaya Demir Şahin Çelik Yıldız Yıldırım Öztürk Aydın Özdemir Arslan Doğan Kılıç Aslan Çetin Kara Koç Kurt Özkan Şimşek Polat Korkmaz Erdoğan Aksoy Güler Zarrab Sezgin Karakaya Bozkurt Akgül Acar Tekin Güneş Uçar Keskin`));
const turkishFamily = longTail(turkishFamilyPool, 0.4, `Kara Ak Demir Gök Öz Yıl Er Tun Bal Sarı Kal Çak Ay Gün Tok Kır Uz Bay Kay Sel Ulu Yen Koca Alp Bil Can Dur Ev Göz`, `oğlu er can han taş dağ soy kan ci gil ay ol`);

const turkish: Culture = {
  id: 'turkish',
  countries: ['TR', 'CY', 'AZ', 'DE'],
  person(random) {
    const ascii = (t: string) => t.replace(/ı/g, 'i').replace(/İ/g, 'I').replace(/ş/g, 's').replace(/Ş/g, 'S').replace(/ç/g, 'c').replace(/Ç/g, 'C').replace(/ğ/g, 'g').replace(/ö/g, 'o').replace(/Ö/g, 'O').replace(/ü/g, 'u').replace(/Ü/g, 'U');
    const build = (text: string, role: NameRole) => word(ascii(text), role, text);
    const out = [build(turkishGiven(random), 'given')];
    if (random.chance(0.2)) out.push(build(turkishGiven(random), 'middle'));
    out.push(build(turkishFamily(random), 'family'));
    return { culture: 'turkish', female: random.chance(0.2), familyFirst: false, words: out };
  },
  rules: [[/s/, 'sh'], [/c/, 'ch'], [/c/, 'j'], [/o/, 'oe'], [/u/, 'ue'], [/et$/, 'ed'], [/g/, 'gh']],
  synonyms: ['mehmet mehmed muhammed', 'ahmet ahmed', 'huseyin hussein huseyn', 'ismail esmail', 'omer omar', 'suleyman suleiman'].map(words),
  toScript: (w) => w.script,
};

// ---- African ------------------------------------------------------------------------------------

const africanGiven = zipf(words(`Mohammed Ibrahim Abubakar Musa Aliyu Usman Sani Yusuf Mamadou Moussa Ousmane Amadou Abdoulaye Joseph Emmanuel John Chinedu Emeka Oluwaseun Babatunde Adebayo Kwame Kofi Kwabena Yaw Chidi Nnamdi Tunde Femi Segun Godfrey Tendai Tatenda Farai Sipho Thabo Themba Jean-Pierre Jean-Baptiste Salif Cheikh Ibrahima Grace Blessing Ngozi Chiamaka Amara Fatoumata Aminata Mariam Patience Ama Akosua`));
const africanFamilyPool = zipf(
  words(`Diallo Traoré Coulibaly Keita Konaté Touré Sow Cissé Ndiaye Diop Fall Okafor Okonkwo Adeyemi Ogunleye Bello Abubakar Danjuma
  Ibrahim Mensah Boateng Owusu Asante Osei Appiah Nkosi Dlamini Ndlovu Moyo Mugabe Mnangagwa Chiwenga Kabila Tshisekedi Kenyatta
  Odinga Kamau Otieno Mwangi Kagame Museveni Kiir Machar Deng Garang Bashir Hemedti Dagalo Mahamat Déby Bozizé Touadéra Nkurunziza`),
);
const africanFamily = longTail(africanFamilyPool, 0.5, `O A N M Ch Kw Nd Mb Ok Ad Ny Ts`, `ba be bo da de di do fa fo ga ge gi ka ke ki ko ku la le lo ma me mi mo mu na ne ni no nu ra re ri sa se si so ta te ti to tu wa we ya yo za zi`, 2);

const african: Culture = {
  id: 'african',
  countries: ['NG', 'SD', 'SS', 'CD', 'ZW', 'ML', 'CF', 'SO', 'KE', 'GH', 'SN', 'BF', 'GN', 'UG', 'ZA'],
  person(random) {
    const out = [accented(africanGiven(random), 'given')];
    if (random.chance(0.2)) out.push(accented(africanGiven(random), 'middle'));
    out.push(accented(africanFamily(random), 'family'));
    return { culture: 'african', female: random.chance(0.2), familyFirst: false, words: out };
  },
  rules: [[/ou/, 'u'], [/e$/, 'ey'], [/y$/, 'i'], [/ch/, 'sh'], [/^j/, 'dj'], [/kw/, 'qu'], [/-/, ' '], [/-/, '']],
  synonyms: ['diallo jallow jalloh', 'coulibaly kulibali kulibaly', 'mamadou mamadu', 'moussa musa', 'ousmane usman othman', 'cisse sisay', 'toure ture', 'mohammed muhammad mohamed'].map(words),
};

// ---- Indian -------------------------------------------------------------------------------------

const indianGiven = zipf(words(`Mohammed Rajesh Suresh Ramesh Mahesh Amit Sunil Anil Vijay Sanjay Rahul Ravi Arun Ajay Deepak Manoj Ashok Vikram Arjun Rohit Pradeep Nitin Imran Irfan Syed Abdul Gurpreet Harpreet Manpreet Dawood Tiger Nirav Mehul Vijay Priya Anjali Sunita Pooja Neha Kavita Lakshmi Meena Asha Rekha`));
const indianFamilyPool = zipf(
  words(`Kumar Singh Sharma Patel Khan Gupta Shah Verma Reddy Rao Nair Iyer Menon Pillai Mehta Jain Agarwal Chopra Malhotra Kapoor Bose
  Banerjee Chatterjee Mukherjee Das Ghosh Joshi Desai Naidu Ansari Qureshi Siddiqui Chaudhary Yadav Mishra Pandey Tiwari Dubey
  Ibrahim Kaskar Memon Modi Choksi Mallya Bhandari Kaur Sandhu Gill Dhillon Sidhu`),
);
const indianFamily = longTail(indianFamilyPool, 0.35, `Agar Bhat Chand Desh Gan Jag Kal Mah Nag Pur Raj Sah Shri Thak Vish Ban Dev Har Kris Lal Mal Ram Shiv Suk Anand Bal Gop Mur Nar Pat`, `wal kar ani war deo pal nath iya wala dar ekar`);

const indian: Culture = {
  id: 'indian',
  countries: ['IN', 'PK', 'BD', 'AE', 'GB', 'NP', 'LK'],
  person(random) {
    const out = [word(indianGiven(random), 'given')];
    if (random.chance(0.3)) out.push(word(random.chance(0.5) ? 'Kumar' : indianGiven(random), 'middle'));
    out.push(word(indianFamily(random), 'family'));
    return { culture: 'indian', female: random.chance(0.2), familyFirst: false, words: out };
  },
  rules: [[/ee/, 'i'], [/i/, 'ee'], [/oo/, 'u'], [/u/, 'oo'], [/v/, 'w'], [/sh/, 's'], [/dh/, 'd'], [/jee$/, 'ji'], [/a$/, ''], [/th/, 't']],
  synonyms: ['chaudhary choudhury chowdhury chaudhry', 'mukherjee mukherji mukerji', 'banerjee banerji', 'chatterjee chatterji', 'syed sayed saiyed', 'mohammed mohammad muhammad mohd'].map(words),
};

/** Share of each culture among listed persons: weighted towards who sanctions and PEP lists name most. */
export const cultureWeights: Record<CultureId, number> = {
  slavic: 22,
  arabic: 19,
  persian: 8,
  chinese: 9,
  korean: 7,
  vietnamese: 3,
  burmese: 3,
  spanish: 10,
  anglo: 7,
  turkish: 3,
  african: 6,
  indian: 3,
};

export const cultures: Record<CultureId, Culture> = { slavic, arabic, persian, chinese, korean, vietnamese, burmese, spanish, anglo, turkish, african, indian };

export { capitalise, transliterate, cyrillic };
