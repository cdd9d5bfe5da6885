import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { plainListQuery } from '../../src/freights-http/pages/list-page.tsx';

/**
 * The list page's reading of the search bar (issue 24, items 2 and 3): numbers typed in the
 * reader's language become the API's plain form, nothing is sent that the API would warn about
 * unasked, and a URL already in plain form is left alone (so the page redirects at most once).
 */
describe('plainListQuery', () => {
  test('the bar’s weights and radii in the reader’s language', () => {
    assert.equal(plainListQuery('weight_min=5.000&typed=1', 'deu'), 'weight_min=5000');
    assert.equal(plainListQuery('weight_min=5%2C000&typed=1', 'eng'), 'weight_min=5000');
    assert.equal(plainListQuery('weight_min=12%2C5+t&weight_max=1.250%2C5&typed=1', 'deu'), 'weight_min=12500&weight_max=1250.5');
    assert.equal(plainListQuery('weight_min=1%2C255&typed=1', 'deu'), 'weight_min=1.255', '1,255 kg in German');
    assert.equal(plainListQuery('from_near=50.11%2C8.68&from_radius=12%2C5&typed=1', 'deu'), 'from_near=50.11%2C8.68&from_radius=12.5');
  });

  test('nothing the API would warn about unasked: no empty parameter, no radius without a centre', () => {
    assert.equal(
      plainListQuery(
        'limit=20&sort=Routes.created&direction=desc&typed=1&from=DE&from_near=&from_radius=50&to=&to_near=&to_radius=50&q=',
        'eng',
      ),
      'limit=20&sort=Routes.created&direction=desc&from=DE',
    );
    assert.equal(plainListQuery('from_radius=50&to=IT', 'eng'), 'to=IT', 'an old bookmark too');
  });

  test('countries typed by name, in either language', () => {
    assert.equal(plainListQuery('from=Deutschland%2C+DE-60&to=italy&typed=1', 'eng'), 'from=DE%2CDE-60&to=IT');
  });

  test('what cannot be read stays as typed, for the API’s warning to name it', () => {
    assert.equal(plainListQuery('weight_min=viel&typed=1', 'deu'), 'weight_min=viel');
    assert.equal(plainListQuery('from=Frankfurt&typed=1', 'deu'), 'from=Frankfurt');
  });

  test('a URL in the API’s plain form is left alone, read as the API reads it', () => {
    assert.equal(plainListQuery('', 'deu'), undefined);
    assert.equal(plainListQuery('weight_min=5.000', 'deu'), undefined, 'no mark: the API’s form (5 kg), never re-read');
    assert.equal(plainListQuery('weight_min=1.255&from_near=50.11%2C8.68&from_radius=50&page=2', 'deu'), undefined);
    const once = plainListQuery('weight_min=5.000&from_radius=50&typed=1', 'deu')!;
    assert.equal(plainListQuery(once, 'deu'), undefined, 'the redirect’s target needs no second one');
  });
});
