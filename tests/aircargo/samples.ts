/**
 * The same air cargo facts in the three formats a status push reads: the exchange's CSV
 * (times in APP_TIMEZONE, UTC in tests), Cargo-IMP FSU (times local to the airport, no year) and
 * Cargo-XML XFSU (xsd:dateTime, with or without an offset). Three shipments:
 * 1. FRA → JFK, 10 pieces 250.5 kg, every milestone from acceptance to delivery;
 * 2. HKG → FRA split over two flights (6 + 4 pieces), part statuses and a partial delivery;
 * 3. SIN → ORD weighed in pounds (110.2 lb = 49.986 kg).
 * "Now" for the tests is 2026-04-20 12:00 UTC, so 14APR is 14 April 2026.
 */
import type { ApiResponse, Actor, TestApp } from '../support/harness.ts';

export const NOW = new Date('2026-04-20T12:00:00Z');

/** An AWB with a valid check digit: prefix 020, serial from `n`. */
export function awb(n: number): string {
  const serial7 = String(5_000_000 + n);
  return `020-${serial7}${Number(serial7) % 7}`;
}

export interface Trio {
  one: string;
  split: string;
  pounds: string;
}

export const trio = (base: number): Trio => ({ one: awb(base + 1), split: awb(base + 2), pounds: awb(base + 3) });

/** The facts as CSV rows: awb,code,time (UTC),location,flight,pieces,weight,shc,warehouse. */
export function csvSample(a: Trio): string {
  const rows = [
    `${a.one},RCS,2026-04-14 07:30,FRA,,10,250.5,,`,
    `${a.one},DEP,2026-04-14 08:10,FRA,LH400,10,250.5,,`,
    `${a.one},ARR,2026-04-14 17:20,JFK,LH400,10,250.5,,`,
    `${a.one},RCF,2026-04-14 20:10,JFK,LH400,10,250.5,,`,
    `${a.one},NFD,2026-04-15 13:00,JFK,,10,250.5,,`,
    `${a.one},AWD,2026-04-15 14:00,JFK,,10,250.5,,`,
    `${a.one},DLV,2026-04-15 19:00,JFK,,10,250.5,,`,
    `${a.split},RCS,2026-04-13 10:00,HKG,,10,500,,`,
    `${a.split},DEP,2026-04-13 15:50,HKG,CX289,6,300,,`,
    `${a.split},DEP,2026-04-13 17:30,HKG,CX291,4,200,,`,
    `${a.split},RCF,2026-04-14 05:00,FRA,CX289,6,300,,`,
    `${a.split},RCF,2026-04-14 07:15,FRA,CX291,4,200,,`,
    `${a.split},NFD,2026-04-14 08:00,FRA,,10,500,,`,
    `${a.split},DLV,2026-04-14 12:00,FRA,,6,300,,`,
    `${a.pounds},RCF,2026-04-16 13:30,ORD,SQ26,2,49.986,,`,
    `${a.pounds},DLV,2026-04-16 17:00,ORD,,2,49.986,,`,
  ];
  return `${['awb,code,time,location,flight_number,pieces,weight,special_handling_codes,warehouse_location', ...rows].join('\n')}\n`;
}

/**
 * The facts as Cargo-IMP FSU/14 messages: Type-B envelopes, several status lines in one
 * message, continuation and OSI lines, parts (P…T10) and pounds (L).
 */
export function fsuSample(a: Trio): string {
  return [
    'QK FRAFMLH',
    '.HDQFMLH 140930',
    'FSU/14',
    `${a.one}FRAJFK/T10K250.5`,
    'RCS/14APR0930/FRA/T10K250.5/ACME FORWARDING',
    'DEP/LH400/14APR/FRAJFK/T10K250.5/S1000/A1010',
    'OSI/LOADED ON PMC12345LH',
    '/CONTINUED REMARK',
    '',
    'FSU/14',
    `${a.one}FRAJFK/T10K250.5`,
    'ARR/LH400/14APR/JFK/T10K250.5/S1305/A1320',
    'RCF/LH400/14APR1610/JFK/T10K250.5',
    'FSU/14',
    `${a.one}FRAJFK/T10K250.5`,
    'NFD/15APR0900/JFK/T10K250.5/JOHN SMITH',
    'AWD/15APR1000/JFK/T10K250.5',
    'DLV/15APR1500/JFK/T10K250.5/JOHN SMITH',
    '',
    'QK FRAFMCX',
    '.HKGFMCX 131800',
    'FSU/14',
    `${a.split}HKGFRA/T10K500`,
    'RCS/13APR1800/HKG/T10K500',
    'DEP/CX289/13APR/HKGFRA/P6K300T10/A2350',
    'DEP/CX291/14APR/HKGFRA/P4K200T10/A0130',
    'FSU/14',
    `${a.split}HKGFRA/T10K500`,
    'RCF/CX289/14APR0700/FRA/P6K300T10',
    'RCF/CX291/14APR0915/FRA/P4K200T10',
    'NFD/14APR1000/FRA/T10K500',
    'DLV/14APR1400/FRA/P6K300T10',
    'FSU/14',
    `${a.pounds}SINORD/T2L110.2`,
    'RCF/SQ26/16APR0830/ORD',
    'DLV/16APR1200/ORD/T2L110.2',
    '',
  ].join('\r\n');
}

interface XfsuPart {
  pieces?: number;
  weight?: string;
  unit?: string;
  split?: string;
  flight?: string;
  location?: string;
  time?: string;
  departure?: { time: string; location: string };
  arrival?: { time: string; location: string };
}

/** One Cargo-XML status message (XFSU 3) for one status of one AWB. */
export function xfsuMessage(
  awbNumber: string,
  code: string,
  parts: XfsuPart[],
  master: { pieces: number; weight: string; unit?: string; from: string; to: string },
): string {
  const measure = (w: string, unit = 'KGM') => `<ram:GrossWeightMeasure unitCode="${unit}">${w}</ram:GrossWeightMeasure>`;
  const consignments = parts.map((p) => {
    const movement = [
      p.flight ? `<ram:ID>${p.flight}</ram:ID>` : '',
      p.arrival
        ? `<ram:ArrivalEvent><ram:ArrivalOccurrenceDateTime>${p.arrival.time}</ram:ArrivalOccurrenceDateTime><ram:ArrivalDateTimeTypeCode>A</ram:ArrivalDateTimeTypeCode><ram:OccurrenceArrivalLocation><ram:ID>${p.arrival.location}</ram:ID></ram:OccurrenceArrivalLocation></ram:ArrivalEvent>`
        : '',
      p.departure
        ? `<ram:DepartureEvent><ram:DepartureOccurrenceDateTime>${p.departure.time}</ram:DepartureOccurrenceDateTime><ram:DepartureDateTimeTypeCode>A</ram:DepartureDateTimeTypeCode><ram:OccurrenceDepartureLocation><ram:ID>${p.departure.location}</ram:ID></ram:OccurrenceDepartureLocation></ram:DepartureEvent>`
        : '',
      p.location ? `<ram:SpecifiedLocation><ram:ID>${p.location}</ram:ID><ram:TypeCode>Airport</ram:TypeCode></ram:SpecifiedLocation>` : '',
      p.time
        ? `<ram:SpecifiedEvent><ram:OccurrenceDateTime>${p.time}</ram:OccurrenceDateTime><ram:DateTimeTypeCode>A</ram:DateTimeTypeCode></ram:SpecifiedEvent>`
        : '',
    ].join('');
    return `
      <ram:AssociatedStatusConsignment>
        ${p.weight ? measure(p.weight, p.unit) : ''}
        ${p.pieces !== undefined ? `<ram:PieceQuantity>${p.pieces}</ram:PieceQuantity>` : ''}
        <ram:TransportSplitDescription>${p.split ?? 'T'}</ram:TransportSplitDescription>
        <ram:SpecifiedLogisticsTransportMovement>${movement}</ram:SpecifiedLogisticsTransportMovement>
      </ram:AssociatedStatusConsignment>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:StatusMessage xmlns:rsm="iata:statusmessage:1" xmlns:ram="iata:datamodel:3" xmlns:ccts="urn:un:unece:uncefact:documentation:standard:CoreComponentsTechnicalSpecification:2" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:8">
  <rsm:MessageHeaderDocument>
    <ram:ID>${awbNumber}-${code}</ram:ID>
    <ram:Name>Status Message</ram:Name>
    <ram:TypeCode>FSU</ram:TypeCode>
    <ram:IssueDateTime>2026-04-16T18:00:00</ram:IssueDateTime>
    <ram:PurposeCode>Creation</ram:PurposeCode>
    <ram:VersionID>3.00</ram:VersionID>
    <ram:SenderParty><ram:PrimaryID schemeID="C">FRAFMLH</ram:PrimaryID></ram:SenderParty>
    <ram:RecipientParty><ram:PrimaryID schemeID="C">FRAFFXX</ram:PrimaryID></ram:RecipientParty>
  </rsm:MessageHeaderDocument>
  <rsm:BusinessHeaderDocument><ram:ID>${awbNumber}</ram:ID></rsm:BusinessHeaderDocument>
  <rsm:MasterConsignment>
    ${measure(master.weight, master.unit)}
    <ram:TotalPieceQuantity>${master.pieces}</ram:TotalPieceQuantity>
    <ram:TransportContractDocument><ram:ID>${awbNumber}</ram:ID><ram:Name>Air Waybill</ram:Name><ram:TypeCode>740</ram:TypeCode></ram:TransportContractDocument>
    <ram:OriginLocation><ram:ID>${master.from}</ram:ID></ram:OriginLocation>
    <ram:FinalDestinationLocation><ram:ID>${master.to}</ram:ID></ram:FinalDestinationLocation>
    <ram:ReportedStatus>
      <ram:ReasonCode>${code}</ram:ReasonCode>${consignments.join('')}
    </ram:ReportedStatus>
  </rsm:MasterConsignment>
</rsm:StatusMessage>
`;
}

/** The facts as XFSU messages, one file each: local times, UTC offsets, Z, departure and arrival events, parts, pounds. */
export function xfsuSample(a: Trio): string[] {
  const one = { pieces: 10, weight: '250.5', from: 'FRA', to: 'JFK' };
  const split = { pieces: 10, weight: '500', from: 'HKG', to: 'FRA' };
  const pounds = { pieces: 2, weight: '110.2', unit: 'LBR', from: 'SIN', to: 'ORD' };
  return [
    xfsuMessage(a.one, 'RCS', [{ pieces: 10, weight: '250.5', location: 'FRA', time: '2026-04-14T09:30:00' }], one),
    xfsuMessage(
      a.one,
      'DEP',
      [{ pieces: 10, weight: '250.5', flight: 'LH400', departure: { time: '2026-04-14T10:10:00+02:00', location: 'FRA' } }],
      one,
    ),
    xfsuMessage(
      a.one,
      'ARR',
      [{ pieces: 10, weight: '250.5', flight: 'LH400', arrival: { time: '2026-04-14T13:20:00', location: 'JFK' } }],
      one,
    ),
    xfsuMessage(a.one, 'RCF', [{ pieces: 10, weight: '250.5', flight: 'LH400', location: 'JFK', time: '2026-04-14T20:10:00Z' }], one),
    xfsuMessage(a.one, 'NFD', [{ location: 'JFK', time: '2026-04-15T09:00:00' }], one),
    xfsuMessage(a.one, 'AWD', [{ pieces: 10, weight: '250.50', location: 'JFK', time: '2026-04-15T10:00:00-04:00' }], one),
    xfsuMessage(a.one, 'DLV', [{ pieces: 10, weight: '250.5', location: 'JFK', time: '2026-04-15T15:00:00' }], one),
    xfsuMessage(a.split, 'RCS', [{ pieces: 10, weight: '500', location: 'HKG', time: '2026-04-13T18:00:00' }], split),
    // One message, two parts of a split shipment on two flights.
    xfsuMessage(
      a.split,
      'DEP',
      [
        {
          pieces: 6,
          weight: '300',
          split: 'P',
          flight: 'CX289',
          location: 'HKG',
          departure: { time: '2026-04-13T23:50:00', location: 'HKG' },
        },
        { pieces: 4, weight: '200', split: 'P', flight: 'CX291', departure: { time: '2026-04-14T01:30:00+08:00', location: 'HKG' } },
      ],
      split,
    ),
    xfsuMessage(
      a.split,
      'RCF',
      [
        { pieces: 6, weight: '300', split: 'P', flight: 'CX289', location: 'FRA', time: '2026-04-14T07:00:00' },
        { pieces: 4, weight: '200', split: 'P', flight: 'CX291', location: 'FRA', time: '2026-04-14T09:15:00' },
      ],
      split,
    ),
    xfsuMessage(a.split, 'NFD', [{ pieces: 10, weight: '500', location: 'FRA', time: '2026-04-14T10:00:00' }], split),
    xfsuMessage(a.split, 'DLV', [{ pieces: 6, weight: '300', split: 'P', location: 'FRA', time: '2026-04-14T14:00:00' }], split),
    xfsuMessage(a.pounds, 'RCF', [{ flight: 'SQ26', location: 'ORD', time: '2026-04-16T08:30:00' }], pounds),
    xfsuMessage(a.pounds, 'DLV', [{ pieces: 2, weight: '110.2', unit: 'LBR', location: 'ORD', time: '2026-04-16T12:00:00' }], pounds),
  ];
}

export const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

export function push(app: TestApp, actor: Actor, action: string, content: string, name = `${action}.txt`): Promise<ApiResponse> {
  return app.post('/files/push.json', { token: actor.token, json: { encoding: 'base64', content: b64(content), name, action } });
}
